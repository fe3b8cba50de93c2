import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import type { Config } from '../../../lib/config';
import { createQueueRepository } from '../../../db/repositories/queue-repository';
import { createQueueActivities } from '../../../activities/queue/queue-activities';
import { createDomainEventsActivities, type FanOut } from '../../../activities/domain-events/domain-events-activities';
import { appSecret } from '../../../lib/config';
import { createWebhookHttpClient } from '../../../lib/webhooks/http-client';
import { createWebhooksRepository } from '../../../db/repositories/webhooks-repository';
import { createAccountsRepository } from '../../../db/repositories/accounts-repository';
import { createWebhooksActivities } from '../../../activities/webhooks/webhooks-activities';
import { createWebhooksFanOut } from '../../../activities/webhooks/webhooks-fan-out';
import { createEmailOutbox } from '../../../activities/email/email-outbox';
import { createEmailActivities, createSmtpMailer } from '../../../activities/email/email-activities';
import { createMatchmakingActivities } from '../../../activities/matchmaking/matchmaking-activities';
import { createMatchmakingRepository } from '../../../db/repositories/matchmaking-repository';
import { createMatchesActivities } from '../../../activities/matches/matches-activities';
import { createMatchesRepository } from '../../../db/repositories/matches-repository';
import { createSettingsRepository } from '../../../db/repositories/settings-repository';
import { createEventsActivities } from '../../../activities/events/events-activities';
import { createEventsRepository } from '../../../db/repositories/events-repository';

export interface WorkerDeps {
  config: Config;
  knex: Knex;
  /** For activities that message other workflows (matchmaker offers, event fan-out). */
  client: Client;
}

/** The only place real dependencies are built for activities; one line per capability. */
export function buildActivities(deps: WorkerDeps) {
  const webhooksRepository = createWebhooksRepository(deps.knex);
  const outbox = createEmailOutbox(deps.knex);
  // Every emitted event starts one webhook delivery workflow per matching subscription.
  const fanOut: FanOut = createWebhooksFanOut({ webhooksRepository, client: deps.client, config: deps.config });
  return {
    ...createDomainEventsActivities({ knex: deps.knex, fanOut }),
    ...createQueueActivities({ queueRepository: createQueueRepository(deps.knex) }),
    ...createWebhooksActivities({
      knex: deps.knex,
      webhooksRepository,
      accountsRepository: createAccountsRepository(deps.knex),
      outbox,
      httpClient: createWebhookHttpClient({ policy: { allowLoopback: deps.config.WEBHOOK_ALLOW_LOOPBACK }, timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS }),
      appSecret: appSecret(deps.config),
      client: deps.client,
      publicBaseUrl: deps.config.publicBaseUrl,
    }),
    ...createEmailActivities({ outbox, mailer: createSmtpMailer(deps.config), config: deps.config }),
    ...createEventsActivities({ eventsRepository: createEventsRepository(deps.knex), client: deps.client }),
    ...createMatchmakingActivities({ knex: deps.knex, client: deps.client, config: deps.config, matchmakingRepository: createMatchmakingRepository(deps.knex) }),
    ...createMatchesActivities({ matchesRepository: createMatchesRepository(deps.knex), settingsRepository: createSettingsRepository(deps.knex) }),
  };
}
