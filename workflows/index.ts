// The worker's workflowsPath: every workflow of the service, one export per file.
export * from './queue/queue-entry';
