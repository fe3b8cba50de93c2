import type { Knex } from 'knex';
import { createAccountsRepository } from './accounts/accounts-repository';
import { createProfilesRepository } from './accounts/profiles-repository';
import { createSessionsRepository } from './accounts/sessions-repository';
import { createSettingsRepository } from './accounts/settings-repository';
import { createTokensRepository } from './accounts/tokens-repository';
import { createOAuthRepository } from './accounts/oauth-repository';
import { createInvitesRepository } from './accounts/invites-repository';
import { createEventsRepository } from './events/events-repository';
import { createJobsRepository } from './events/jobs-repository';
import { createCandidatesRepository } from './events/candidates-repository';
import { createAvailabilityRepository } from './events/availability-repository';
import { createQueueRepository } from './queue/queue-repository';
import { createQueueStatusRepository } from './queue/queue-status-repository';
import { createMatchmakingRepository } from './matchmaking/matchmaking-repository';
import { createSkillsRepository } from './matchmaking/skills-repository';
import { createMatchesRepository } from './matches/matches-repository';
import { createInterviewReportsRepository } from './matches/interview-reports-repository';
import { createWebhooksRepository } from './webhooks/webhooks-repository';
import { createChangelogRepository } from './changelog/changelog-repository';
import { createOutboxRepository } from './notifications/outbox-repository';
import { createBillingRepository } from './billing/billing-repository';
import { createRetentionRepository } from './retention/retention-repository';
import { createRoomRepository } from './room/room-repository';

/**
 * Every repository over one knex pool, built once per process (the API's services plugin, the
 * worker's activities, scripts and tests). Each method takes an optional transaction last.
 */
export function createRepositories(knex: Knex) {
  const matchmaking = createMatchmakingRepository(knex);
  return {
    accounts: createAccountsRepository(knex),
    profiles: createProfilesRepository(knex),
    sessions: createSessionsRepository(knex),
    settings: createSettingsRepository(knex),
    tokens: createTokensRepository(knex),
    oauth: createOAuthRepository(knex),
    invites: createInvitesRepository(knex),
    events: createEventsRepository(knex),
    jobs: createJobsRepository(knex),
    candidates: createCandidatesRepository(knex),
    availability: createAvailabilityRepository(knex),
    queue: createQueueRepository(knex),
    queueStatus: createQueueStatusRepository(knex),
    matchmaking,
    skills: createSkillsRepository(knex),
    matches: createMatchesRepository(knex),
    interviewReports: createInterviewReportsRepository(knex),
    webhooks: createWebhooksRepository(knex),
    changelog: createChangelogRepository(knex),
    outbox: createOutboxRepository(knex),
    billing: createBillingRepository(knex),
    retention: createRetentionRepository(knex),
    room: createRoomRepository(knex),
  };
}
export type Repositories = ReturnType<typeof createRepositories>;
