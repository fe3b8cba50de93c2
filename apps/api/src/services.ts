import type { Knex } from 'knex';
import type { FastifyBaseLogger } from 'fastify';
import pino from 'pino';
import type { Client } from '@temporalio/client';
import { appSecret as appSecretOf, type Config } from '#lib/config';
import { createRepositories, type Repositories } from '#db/repositories';
import { createPaginator } from './plugins/pagination';
import { createPublicCache } from './plugins/public-cache';
import type { ServiceDeps } from './plugins/service-deps';
import { createAccountsService } from './accounts/accounts-service';
import { createProfileService } from './accounts/profile-service';
import { createSessionsService } from './accounts/sessions-service';
import { createSettingsService } from './accounts/settings-service';
import { createTokensService } from './accounts/tokens-service';
import { createOAuthService } from './accounts/oauth-service';
import { createVerifiedTokenCache } from './plugins/verified-tokens';
import { createInvitesService } from './accounts/invites-service';
import { createEventsService } from './events/events-service';
import { createJobsService } from './events/jobs-service';
import { createCandidatesService } from './events/candidates-service';
import { createMatchingSettingsService } from './events/matching-settings-service';
import { createQueueService } from './queue/queue-service';
import { createMatchesService } from './matches/matches-service';
import type { VideoProvider } from './room/room-service';
import { createLiveKitRoomService } from './room/livekit-room-service';
import { listenConnectionOf, RoomHub } from './room/room-hub';
import { createWebhooksService } from './webhooks/webhooks-service';
import { createBillingService } from './billing/billing-service';
import { createBillingProvider } from '#domain/billing/providers';
import { createComparisonService } from './matchmaking/comparison-service';
import type { ComparisonProvider } from './matchmaking/comparison-provider';
import { createWaitService } from './matchmaking/wait-service';
import { createChangelogService, loadChangelog, type ChangelogEntry } from './changelog/changelog-service';

export interface CreateServicesOptions {
  knex: Knex;
  temporal: Client;
  config: Config;
  /** Defaults: built here from `knex` and the config. */
  repos?: Repositories;
  appSecret?: string;
  paginator?: ServiceDeps['paginator'];
  cache?: ServiceDeps['cache'];
  /** The API changelog (default: docs/api-changelog.json). */
  changelogEntries?: ChangelogEntry[];
  /** Default: from VIDEO_PROVIDER_URL (the built-in room page when unset). */
  videoProvider?: VideoProvider;
  /** Default: from AI_PROVIDER_URL (the built-in explainable scorer when unset). */
  comparisonProvider?: ComparisonProvider;
  /** Where the room hub logs (the API's logger). Default: silent; only the API starts the hub. */
  log?: Pick<FastifyBaseLogger, 'warn'>;
}

/**
 * The composition root of the API's use-cases, one group per capability. The API builds it once
 * (plugins/services.ts → `app.services`); scripts, benches and the test harness call it too, so
 * nothing else constructs a service or a repository.
 */
export function createServices(opts: CreateServicesOptions) {
  const secret = opts.appSecret ?? appSecretOf(opts.config);
  const repos = opts.repos ?? createRepositories(opts.knex);
  const deps: ServiceDeps = {
    knex: opts.knex,
    repos,
    temporal: opts.temporal,
    config: opts.config,
    appSecret: secret,
    paginator: opts.paginator ?? createPaginator(secret),
    cache:
      opts.cache ??
      createPublicCache({
        ttlMs: opts.config.PUBLIC_CACHE_TTL_MS,
        version: () => repos.events.discoveryVersion(),
        versionMaxStaleMs: opts.config.PUBLIC_CACHE_VERSION_STALE_MS,
      }),
  };
  const payments = createBillingProvider(opts.config, deps.repos.billing);
  const profiles = createProfileService({ ...deps, publicBaseUrl: opts.config.publicBaseUrl });
  // Filled and kept true by the auth plugin (its notification listener); revoking here evicts at once.
  const verifiedTokens = createVerifiedTokenCache({ ttlMs: opts.config.AUTH_CACHE_TTL_MS });
  const matches = createMatchesService({
    ...deps,
    ...(opts.videoProvider ? { videoProvider: opts.videoProvider } : {}),
  });
  return {
    /** What was injected: the repositories, cache and paginator every service shares. */
    deps,
    accounts: {
      users: createAccountsService({ ...deps, profiles }),
      profiles,
      sessions: createSessionsService(deps),
      settings: createSettingsService(deps),
      tokens: createTokensService({ ...deps, verifiedTokens }),
      /** Verified bearer tokens remembered by this process (decision 0211). */
      verifiedTokens,
      invites: createInvitesService(deps),
      /** The OAuth authorization server's model and checks (decision 0260). */
      oauth: createOAuthService({ ...deps, verifiedTokens }),
    },
    events: {
      liveEvents: createEventsService(deps),
      jobs: createJobsService(deps),
      candidates: createCandidatesService(deps),
      matching: createMatchingSettingsService(deps),
    },
    // Leaving while matched declines the match: the queue's leave goes through the matches use-case.
    queue: createQueueService({ ...deps, matches }),
    matches,
    room: createRoom(opts, { repos, appSecret: secret, matches }),
    webhooks: createWebhooksService(deps),
    billing: createBillingService({ ...deps, ...payments }),
    /** The built-in payments provider's pages and forms (null when BILLING_PROVIDER=stripe). */
    localPayments: payments.local,
    matchmaking: {
      comparison: createComparisonService({
        ...deps,
        ...(opts.comparisonProvider ? { provider: opts.comparisonProvider } : {}),
      }),
      /** Why a waiting entry has no match yet (the queue status, `ops why` and the console read it). */
      wait: createWaitService(deps),
    },
    changelog: createChangelogService({ ...deps, entries: opts.changelogEntries ?? loadChangelog() }),
  };
}
export type Services = ReturnType<typeof createServices>;

/**
 * The interview room: the built-in room's signalling between the two pages, shared by the API's
 * replicas (built here; its LISTEN connection and heartbeat opened and closed by the services
 * plugin), and, with VIDEO_PROVIDER=livekit, the LiveKit room's presence.
 */
function createRoom(
  opts: CreateServicesOptions,
  deps: { repos: Repositories; appSecret: string; matches: ReturnType<typeof createMatchesService> },
) {
  return {
    hub: new RoomHub({
      repository: deps.repos.room,
      connection: listenConnectionOf(opts.knex),
      graceMs: opts.config.ROOM_RECONNECT_GRACE_MS,
      log: opts.log ?? pino({ enabled: false }),
    }),
    /** The interview room on LiveKit (null unless VIDEO_PROVIDER=livekit). */
    liveKit: createLiveKitRoomService({ config: opts.config, appSecret: deps.appSecret, matches: deps.matches }),
  };
}
