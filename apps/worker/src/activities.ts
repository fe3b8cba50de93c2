import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { appSecret, type Config } from '#lib/config';
import { createRepositories, type Repositories } from '#db/repositories';
import { createOutboundHttpClient as createWebhookHttpClient } from '#lib/outbound-http/http-client';
import { createQueueActivities } from '#activities/queue/queue-activities';
import { createEventsActivities } from '#activities/events/events-activities';
import { createMatchmakingActivities } from '#activities/matchmaking/matchmaking-activities';
import { createMatchesActivities } from '#activities/matches/matches-activities';
import { createDomainEventsActivities } from '#activities/webhooks/domain-events';
import { createWebhooksFanOut } from '#activities/webhooks/fan-out';
import { createWebhookDeliveryActivities } from '#activities/webhooks/delivery-activities';
import { createWebhookSubscriptionActivities } from '#activities/webhooks/subscription-activities';
import { createWebhookDispatcherActivities } from '#activities/webhooks/dispatcher-activities';
import { createDispatchWake, type DispatchWake } from '#activities/webhooks/dispatch-wake';
import {
  createEmailActivities,
  createOutboxSender,
  createSmtpMailer,
} from '#activities/notifications/email-activities';
import { createBillingActivities } from '#activities/billing/billing-activities';
import { createBillingProvider } from '#domain/billing/providers';
import { createRetentionActivities } from '#activities/retention/retention-activities';

export interface WorkerDeps {
  config: Config;
  knex: Knex;
  /** For activities that message other workflows (matchmaker offers, event fan-out). */
  client: Client;
  /**
   * Aborted when the worker begins to shut down. A long-waiting activity (the webhook dispatcher's
   * idle wait) returns at once instead of holding the shutdown for its grace time; Temporal hands
   * its next call to whichever worker polls next.
   */
  draining?: AbortSignal;
}

export interface BuiltActivities {
  activities: ReturnType<typeof activitiesOf>;
  /** The webhook dispatcher's wake-up, shared by this worker's fan-out and dispatcher (a fan-out built elsewhere in the process, as tests do, may nudge it too). */
  dispatchWake: Pick<DispatchWake, 'nudge'>;
}

/**
 * The only place real dependencies are built for activities: the repositories once, then one line per
 * capability; and the one state the worker's activities share, the dispatcher's wake-up.
 */
export function buildActivities(deps: WorkerDeps): BuiltActivities {
  const dispatchWake = createDispatchWake();
  return { activities: activitiesOf(deps, dispatchWake), dispatchWake };
}

type Repos = Repositories;
type Shared = ReturnType<typeof sharedOf>;

function activitiesOf(deps: WorkerDeps, dispatchWake: DispatchWake) {
  const repos = createRepositories(deps.knex);
  const shared = sharedOf(deps, repos, dispatchWake);
  return {
    ...matchingActivitiesOf(deps, repos, shared),
    ...webhookActivitiesOf(deps, repos, shared, dispatchWake),
    ...upkeepActivitiesOf(deps, repos, shared),
  };
}

/** What several capabilities' activities share: the mailer, the outbox sender, the webhook client and fan-out. */
function sharedOf(deps: WorkerDeps, repos: Repos, dispatchWake: DispatchWake) {
  // One SMTP transport per worker: the outbox sender and the match notices share it.
  const mailer = createSmtpMailer(deps.config);
  const sendOutbox = createOutboxSender({
    outbox: repos.outbox,
    mailer,
    config: deps.config,
    appSecret: appSecret(deps.config),
  });
  const webhookHttpClient = createWebhookHttpClient({
    policy: { allowLoopback: deps.config.OUTBOUND_HTTP_ALLOW_LOOPBACK },
    timeoutMs: deps.config.WEBHOOK_TIMEOUT_MS,
  });
  // Every emitted event records one delivery per matching subscription; the webhook dispatcher makes the first attempts (decision 0195).
  const fanOut = createWebhooksFanOut({
    webhooksRepository: repos.webhooks,
    client: deps.client,
    config: deps.config,
    dispatchWake,
  });
  return { mailer, sendOutbox, webhookHttpClient, fanOut };
}

/** The fair's own flow: queue entries, live events, matchmaking and matches. */
function matchingActivitiesOf(deps: WorkerDeps, repos: Repos, shared: Shared) {
  return {
    ...createQueueActivities({
      knex: deps.knex,
      queueRepository: repos.queue,
      matchesRepository: repos.matches,
      matchAcceptWindowMs: deps.config.MATCH_ACCEPT_WINDOW_MS,
    }),
    ...createEventsActivities({ eventsRepository: repos.events, client: deps.client }),
    ...createMatchmakingActivities({
      knex: deps.knex,
      client: deps.client,
      config: deps.config,
      matchmakingRepository: repos.matchmaking,
      accountsRepository: repos.accounts,
    }),
    ...createMatchesActivities({
      matchesRepository: repos.matches,
      settingsRepository: repos.settings,
      accountsRepository: repos.accounts,
      eventsRepository: repos.events,
      outbox: repos.outbox,
      sendOutbox: shared.sendOutbox,
      publicBaseUrl: deps.config.publicBaseUrl,
      expiryReminderMs: deps.config.MATCH_EXPIRY_REMINDER_MS,
      reportWindowMs: deps.config.INTERVIEW_REPORT_WINDOW_MS,
      interviewReportsRepository: repos.interviewReports,
      matchmakingRepository: repos.matchmaking,
    }),
  };
}

/** Domain events and webhooks: the fan-out, deliveries, the dispatcher and subscriptions. */
function webhookActivitiesOf(deps: WorkerDeps, repos: Repos, shared: Shared, dispatchWake: DispatchWake) {
  return {
    ...createDomainEventsActivities({ knex: deps.knex, fanOut: shared.fanOut }),
    ...createWebhookDeliveryActivities({
      knex: deps.knex,
      webhooksRepository: repos.webhooks,
      httpClient: shared.webhookHttpClient,
      appSecret: appSecret(deps.config),
    }),
    ...createWebhookDispatcherActivities({
      knex: deps.knex,
      webhooksRepository: repos.webhooks,
      httpClient: shared.webhookHttpClient,
      appSecret: appSecret(deps.config),
      client: deps.client,
      config: deps.config,
      dispatchWake,
      draining: deps.draining,
    }),
    ...createWebhookSubscriptionActivities({
      knex: deps.knex,
      webhooksRepository: repos.webhooks,
      accountsRepository: repos.accounts,
      outbox: repos.outbox,
      client: deps.client,
      publicBaseUrl: deps.config.publicBaseUrl,
    }),
  };
}

/** E-mail, billing and retention. */
function upkeepActivitiesOf(deps: WorkerDeps, repos: Repos, shared: Shared) {
  return {
    ...createEmailActivities({
      outbox: repos.outbox,
      mailer: shared.mailer,
      config: deps.config,
      appSecret: appSecret(deps.config),
    }),
    ...createBillingActivities({
      billingRepository: repos.billing,
      provider: createBillingProvider(deps.config, repos.billing).provider,
      publicBaseUrl: deps.config.publicBaseUrl,
    }),
    ...createRetentionActivities({
      retentionRepository: repos.retention,
      config: deps.config,
      draining: deps.draining,
    }),
  };
}
