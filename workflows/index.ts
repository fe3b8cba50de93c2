// The worker's workflowsPath: every workflow of the service, one export per file.
export * from './queue/queue-entry';
export * from './events/live-event';
export * from './matches/match';
export * from './matchmaking/matchmaker';
export * from './changelog/changelog-announcement';
export * from './webhooks/webhook-subscription';
export * from './webhooks/webhook-delivery';
