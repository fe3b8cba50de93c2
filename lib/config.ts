import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The one configuration schema shared by the API, the worker and the scripts.
 * Every variable is described here; `.env.example` and the README table list the same names.
 */
const bool = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const durationMs = z.coerce.number().int().min(1);

/** The spec's idempotency window: a key replayed within 24 hours answers the first answer again. */
export const IDEMPOTENCY_WINDOW_MS = 24 * 60 * 60 * 1000;

/**
 * The shortest retention of finished webhook deliveries: the 30 days a dead letter waits open for
 * its replay (`DEAD_LETTER_HOLD_MS` in the webhooks contract, which lib may not import; a test
 * checks the two agree). A replay reads the dead letter's row and its event.
 */
export const WEBHOOK_DELIVERY_RETENTION_MIN_MS = 30 * 24 * 60 * 60 * 1000;

/** A comma-separated list of ICE server URLs (RFC 7064/7065), each with one of `schemes`. */
const iceUrls = (schemes: string[]) =>
  z
    .string()
    .optional()
    .transform((s) =>
      s
        ? s
            .split(',')
            .map((u) => u.trim())
            .filter(Boolean)
        : [],
    )
    .pipe(
      z.array(
        z
          .string()
          .refine((u) => schemes.some((p) => u.startsWith(`${p}:`)), `each URL starts with ${schemes.join(': or ')}:`),
      ),
    );

const msList = z
  .string()
  .regex(/^\d+(,\d+)*$/, 'a comma-separated list of milliseconds, e.g. 30000,300000')
  .transform((s) => s.split(',').map(Number));

/** One bracket of the quality floor: from `afterMs` of waiting, the event's minimum score minus `relax`, and whether an essential skill is required. */
export interface FloorBracket {
  afterMs: number;
  relax: number;
  essential: boolean;
}

const floorBrackets = z
  .string()
  .regex(
    /^\d+:\d+:[01](,\d+:\d+:[01])*$/,
    'comma-separated brackets <after_ms>:<relax_points>:<essential 1|0>, e.g. 0:0:1,300000:15:1',
  )
  .transform((s) =>
    s.split(',').map((b): FloorBracket => {
      const [afterMs, relax, essential] = b.split(':');
      return { afterMs: Number(afterMs), relax: Number(relax), essential: essential === '1' };
    }),
  )
  .refine(
    (bs) => bs[0].afterMs === 0 && bs.every((b, i) => i === 0 || b.afterMs > bs[i - 1].afterMs),
    'the first bracket starts at 0 and each starts later than the one before',
  )
  .refine((bs) => bs.every((b) => b.relax <= 100), 'relax is 0–100 points');

export const configSchema = z.object({
  NODE_ENV: z
    .enum(['development', 'test', 'production'])
    .default('development')
    .describe('Runtime mode; production requires APP_SECRET'),
  LOG_LEVEL: z
    .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'])
    .default('info')
    .describe('pino log level'),
  LOG_FORMAT: z
    .enum(['auto', 'pretty', 'json'])
    .default('auto')
    .describe('auto = one readable line per event on a terminal (pino-pretty), JSON otherwise; json/pretty force one'),
  HOST: z.string().default('127.0.0.1').describe('Interface the API listens on'),
  PORT: z.coerce.number().int().min(0).max(65535).default(3000).describe('API port (0 = any free port)'),
  METRICS_PORT: z.coerce
    .number()
    .int()
    .min(0)
    .max(65535)
    .optional()
    .describe(
      'Port of the Prometheus metrics listener (GET /metrics, on HOST), apart from the public ' +
        'port so the load balancer never serves it; unset = no metrics listener (0 = any free port). ' +
        '`npm start` serves the API on it and the worker on the next port (unset: 9464 and 9465, or free ' +
        'ports when those are taken)',
    ),
  OTEL_EXPORTER_OTLP_ENDPOINT: z
    .string()
    .url()
    .optional()
    .describe(
      'OpenTelemetry traces: base URL of an OTLP/HTTP receiver (spans go to <url>/v1/traces); unset = ' +
        'no tracing. `npm start -- --traces` starts a local trace store (Jaeger) and sets it (decision 0263)',
    ),
  OTEL_SERVICE_NAME: z
    .string()
    .optional()
    .describe("Service name on this process's spans (default jobfair-api / jobfair-worker)"),
  TRACE_SAMPLE_RATIO: z.coerce
    .number()
    .min(0)
    .max(1)
    .default(1)
    .describe(
      'Share of new traces recorded (0..1) when tracing is on; a request that arrives with a sampled ' +
        'traceparent is always recorded',
    ),
  TRUST_PROXY: z
    .string()
    .regex(
      /^(true|false|\d+|[0-9a-fA-F:.\/]+(,[0-9a-fA-F:.\/]+)*)$/,
      'false, true, a hop count, or comma-separated proxy IPs/CIDRs',
    )
    .default('false')
    .transform((v): boolean | number | string =>
      v === 'true' ? true : v === 'false' ? false : /^\d+$/.test(v) ? Number(v) : v,
    )
    .describe(
      'Which X-Forwarded-* headers to believe (client IP for per-IP limits, TLS for Secure ' +
        'cookies): false, true (only behind a proxy that overwrites them), a hop count, or proxy ' +
        'IPs/CIDRs',
    ),
  PUBLIC_BASE_URL: z
    .url()
    .optional()
    .describe('Base URL humans and agents reach (join_url, details_url); default http://localhost:PORT'),
  CANONICAL_HOST_REDIRECT: bool
    .default(true)
    .describe(
      "Web pages requested on another host than PUBLIC_BASE_URL's (127.0.0.1 vs localhost) " +
        'redirect there, so session cookies and room links agree',
    ),
  APP_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe(
      'Server master key (cursor signing, webhook signing-key derivation); generated under DATA_DIR in development',
    ),
  DATA_DIR: z
    .string()
    .default('.data')
    .describe('Where embedded PostgreSQL, the Temporal SQLite file and dev secrets live'),
  CACHE_DIR: z
    .string()
    .optional()
    .describe(
      'Per-machine cache outside the repo (the built Temporal CLI and stripe-mock; the opt-in ' +
        'bench Temporal server and SQL tool); default ~/.cache/jobfair',
    ),

  DATABASE_URL: z
    .string()
    .optional()
    .describe('PostgreSQL connection string; unset = embedded PostgreSQL under DATA_DIR'),
  EMBEDDED_PG_PORT: z.coerce
    .number()
    .int()
    .min(1)
    .max(65535)
    .default(5433)
    .describe('Port of the embedded PostgreSQL when DATABASE_URL is unset'),
  DATABASE_POOL_MAX: z.coerce.number().int().min(1).default(10).describe('knex pool size per process'),

  TEMPORAL_ADDRESS: z
    .string()
    .optional()
    .describe('host:port of an existing Temporal frontend; unset = start the dev server'),
  TEMPORAL_NAMESPACE: z.string().default('default').describe('Temporal namespace'),
  TEMPORAL_TASK_QUEUE: z.string().default('jobfair').describe('Task queue of the worker'),
  WORKER_BUILD_ID: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/)
    .optional()
    .describe(
      "Build id of the worker's code (the image tag); set = Worker Versioning: the worker polls as " +
        'version WORKER_DEPLOYMENT_NAME.WORKER_BUILD_ID and workflows auto-upgrade to the current version ' +
        '(changes stay behind patched(); decision 0265); unset = unversioned (npm start, tests)',
    ),
  WORKER_DEPLOYMENT_NAME: z
    .string()
    .regex(/^[A-Za-z0-9][A-Za-z0-9_-]{0,99}$/)
    .default('jobfair')
    .describe('Worker Deployment the versioned worker belongs to (with WORKER_BUILD_ID)'),
  WORKER_PROMOTE: bool
    .default(true)
    .describe(
      "With WORKER_BUILD_ID: once polling, the worker makes its version the deployment's current one " +
        '(the switch of a rolling update); false = a deployer switches (temporal worker deployment set-current-version)',
    ),
  TEMPORAL_CLI: z.string().optional().describe('Path of a temporal CLI binary to run the dev server with'),
  TEMPORAL_PORT: z.coerce.number().int().min(1).max(65535).default(7233).describe('Dev server frontend port'),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233).describe('Dev server Web UI port'),
  TEMPORAL_CALL_TIMEOUT_MS: durationMs
    .default(30_000)
    .describe(
      'Deadline of every Temporal call the API makes (retries included); a miss answers 503 ' +
        'DEPENDENCY_UNAVAILABLE and frees the Idempotency-Key',
    ),
  TEMPORAL_UI_URL: z
    .url()
    .optional()
    .describe(
      'Where operators find the Temporal UI (printed at start; `npm start` sets it to the dev ' +
        "server's UI). When set, team owners see a link from each match page to its workflow " +
        'there; unset = no link',
    ),

  QUEUE_ENTRY_TTL_MS: durationMs.default(2 * 60 * 60 * 1000).describe('How long a queue entry waits before it expires'),
  MCP_WAIT_PROGRESS_INTERVAL_MS: durationMs
    .default(5_000)
    .describe(
      'MCP: how often a waiting tool call (svc_queue_status with a progressToken) re-reads the ' +
        "entry and reports a change as a progress notification, while the answer's " +
        '`poll_after_seconds` is 5; a longer hint stretches it in proportion',
    ),
  MCP_WAIT_MAX_MS: durationMs
    .default(50_000)
    .describe(
      'MCP: how long a waiting tool call stays open before it answers with the current status ' +
        '(under the 60 s request timeout of common clients; the agent calls again)',
    ),
  MATCH_ACCEPT_WINDOW_MS: durationMs.default(15 * 60 * 1000).describe('Acceptance window of a new match (expires_at)'),
  MATCH_EXPIRY_REMINDER_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5 * 60 * 1000)
    .describe('How long before a match expires the parties who have not accepted get a reminder e-mail (0 = none)'),
  INTERVIEW_REPORT_WINDOW_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(7 * 24 * 60 * 60 * 1000)
    .describe(
      "How long after an interview the recruiter's report card can still exchange contact " +
        'details by e-mail (0 = the match ends at completion)',
    ),
  INTERVIEW_LENGTH_MS: durationMs
    .default(30 * 60 * 1000)
    .describe('Interview length; the room closes and the interview completes after it'),
  MATCH_NO_SHOW_GRACE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(10 * 60 * 1000)
    .describe(
      'How long after acceptance both people have to come to the built-in interview room; whoever ' +
        'has not come by then is a no-show and the match ends as `no_show` (0 = no no-shows; none ' +
        'with VIDEO_PROVIDER_URL, whose rooms report no presence)',
    ),
  ROOM_URL_TTL_MS: durationMs.default(60 * 60 * 1000).describe('Lifetime of an interview room URL'),
  VIDEO_PROVIDER_URL: z
    .url()
    .optional()
    .describe(
      'Base URL of a hosted video provider adapter (rooms via POST {url}/rooms); unset = the built-in room page',
    ),
  VIDEO_PROVIDER: z
    .enum(['built-in', 'livekit'])
    .default('built-in')
    .describe(
      'The interview room engine: built-in = peer to peer between the two browsers (or the hosted adapter ' +
        'when VIDEO_PROVIDER_URL is set); livekit = our room page joins a LiveKit server (an SFU) at ' +
        'LIVEKIT_URL, presence from its webhooks (POST /livekit/webhook)',
    ),
  LIVEKIT_URL: z
    .url()
    .optional()
    .describe(
      'LiveKit: the server browsers connect to (wss://livekit.example.org; ws:// on loopback); the API ' +
        'calls its room service at the same address (http/https)',
    ),
  LIVEKIT_API_KEY: z
    .string()
    .min(1)
    .optional()
    .describe('LiveKit: the API key (a `keys:` entry of the LiveKit server)'),
  LIVEKIT_API_SECRET: z
    .string()
    .min(32)
    .optional()
    .describe(
      'LiveKit: the secret of LIVEKIT_API_KEY; the API signs participant tokens and checks webhooks with it ' +
        '(never logged, never sent)',
    ),
  ROOM_STUN_URLS: iceUrls(['stun', 'stuns']).describe(
    'Built-in room: STUN servers (comma-separated, e.g. stun:turn.example.org:3478) that let browsers ' +
      'behind NAT find their public address; unset = host candidates only (same network)',
  ),
  ROOM_TURN_URLS: iceUrls(['turn', 'turns']).describe(
    'Built-in room: TURN relays (comma-separated; list UDP, TCP and TLS on 443, e.g. ' +
      'turn:turn.example.org:3478?transport=udp,turn:turn.example.org:3478?transport=tcp,' +
      'turns:turn.example.org:443?transport=tcp); needs ROOM_TURN_SECRET',
  ),
  ROOM_TURN_SECRET: z
    .string()
    .min(16)
    .optional()
    .describe(
      "The TURN server's shared secret (coturn static-auth-secret): the API mints per-room credentials " +
        'with it that expire with the room URL (never logged, never sent)',
    ),
  ROOM_ICE_TRANSPORT_POLICY: z
    .enum(['all', 'relay'])
    .default('all')
    .describe('Built-in room: all = direct when possible, relayed when needed; relay = always through TURN'),
  ROOM_CONNECT_TIMEOUT_MS: durationMs
    .default(30_000)
    .describe('Built-in room: how long the browsers look for a path to each other before the room says none was found'),
  ROOM_RECONNECT_GRACE_MS: durationMs
    .default(30_000)
    .describe(
      'Built-in room: how long a dropped signalling socket still counts as in the room (the other side ' +
        'sees "reconnecting"; after it, "left")',
    ),
  AI_PROVIDER_URL: z
    .url()
    .optional()
    .describe(
      'Base URL of an OpenAI-compatible API for the AI comparison (POST {url}/chat/completions); ' +
        'unset = the built-in explainable scorer',
    ),
  AI_PROVIDER_KEY: z.string().min(1).optional().describe('Bearer key for AI_PROVIDER_URL (never logged)'),
  AI_PROVIDER_MODEL: z.string().min(1).default('gpt-4o-mini').describe('Model name sent to AI_PROVIDER_URL'),
  AI_PROVIDER_TIMEOUT_MS: durationMs
    .default(20_000)
    .describe('How long the AI comparison waits for the provider before answering 503'),
  MATCHMAKER_INTERVAL_MS: durationMs.default(2000).describe('Matchmaker batch window'),
  MATCHMAKING_PLANNER: z
    .enum(['greedy', 'assignment'])
    .default('greedy')
    .describe(
      'How a matching round chooses its pairs: greedy = by score band, oldest first, each entry its best ' +
        "job with a free slot; assignment = the max-weight assignment of the round's entries to the free " +
        'slots (score plus waiting time), solved by HiGHS (docs/design/matching.md)',
    ),
  MATCH_MIN_SCORE: z.coerce
    .number()
    .int()
    .min(0)
    .max(100)
    .default(50)
    .describe("Default minimum match score of an event's quality floor (an event may set its own)"),
  MATCH_FLOOR_BRACKETS: floorBrackets
    .prefault('0:0:1,300000:15:1,900000:30:0')
    .describe(
      'Quality-floor brackets by waiting time, <after_ms>:<relax_points>:<essential 1|0>: from ' +
        'after_ms the floor is the minimum score minus relax, essential = at least one essential ' +
        'skill required',
    ),

  OUTBOUND_HTTP_ALLOW_LOOPBACK: bool
    .default(false)
    .describe(
      'Development/test only: the outbound HTTP client (webhook deliveries, OAuth client metadata) may reach ' +
        'loopback addresses and use http: to them; refused in production. Formerly `WEBHOOK_ALLOW_LOOPBACK`, ' +
        'still read when this one is unset',
    ),

  WEBHOOK_RETRY_SCHEDULE_MS: msList
    .default([30_000, 300_000, 1_800_000, 21_600_000, 86_400_000])
    .describe('Delays before retries 1..5'),
  WEBHOOK_TIMEOUT_MS: durationMs.default(10_000).describe('A delivery succeeds on a 2xx within this time'),
  WEBHOOK_DISPATCH_POLL_MS: durationMs
    .default(5_000)
    .describe(
      'Safety poll of the webhook dispatcher when idle; new deliveries wake it at once (PostgreSQL LISTEN/NOTIFY)',
    ),
  WEBHOOK_AUTO_PAUSE_FAILURES: z.coerce
    .number()
    .int()
    .min(1)
    .default(25)
    .describe('Consecutive failures that pause a subscription'),
  WEBHOOK_TEST_WAIT_MS: durationMs
    .default(3000)
    .describe(
      'How long POST /webhooks/{id}/test waits for the first attempt; then it answers state ' +
        '`pending` (attempt null) and the attempt appears in the deliveries log',
    ),
  WEBHOOK_SECRET_OVERLAP_MS: durationMs
    .default(24 * 60 * 60 * 1000)
    .describe('How long a rotated-out webhook secret keeps signing'),

  RETENTION_INTERVAL_MS: durationMs
    .default(10 * 60_000)
    .describe(
      'How often the retention workflow looks for rows past their retention (a pass that found more goes on at once)',
    ),
  RETENTION_BATCH_SIZE: z.coerce
    .number()
    .int()
    .min(1)
    .max(10_000)
    .default(1000)
    .describe('Rows deleted per statement by the retention workflow (one short transaction each)'),
  RETENTION_MAX_BATCHES_PER_CALL: z.coerce
    .number()
    .int()
    .min(1)
    .default(100)
    .describe(
      "Further batches per retention activity call after each table's first; a call that reaches it returns " +
        'and the workflow calls again at once',
    ),
  IDEMPOTENCY_KEY_RETENTION_MS: durationMs
    .min(IDEMPOTENCY_WINDOW_MS, 'at least the 24-hour idempotency window the API promises (86400000)')
    .default(IDEMPOTENCY_WINDOW_MS)
    .describe('How long an Idempotency-Key and its stored answer are kept; never less than the 24-hour window'),
  WEBHOOK_DELIVERY_RETENTION_MS: durationMs
    .min(WEBHOOK_DELIVERY_RETENTION_MIN_MS, 'at least the 30 days a dead letter waits for its replay (2592000000)')
    .default(WEBHOOK_DELIVERY_RETENTION_MIN_MS)
    .describe(
      'How long a finished webhook delivery (delivered, dead letter, cancelled, not sent) and its attempts ' +
        'are kept after it finished; never less than the 30 days a dead letter waits for its replay',
    ),
  EMAIL_OUTBOX_RETENTION_MS: durationMs
    .default(30 * 24 * 60 * 60 * 1000)
    .describe('How long a sent or failed e-mail stays in the outbox; pending ones are never deleted'),
  RETENTION_EXPIRED_MARGIN_MS: durationMs
    .default(24 * 60 * 60 * 1000)
    .describe(
      'How long expired OAuth codes and tokens, web sessions and sign-up requests are kept after they expire ' +
        '(a replayed code or refresh token still revokes its grant within it)',
    ),

  SMTP_URL: z
    .string()
    .optional()
    .describe('smtp://host:port for outgoing e-mail; unset = e-mails stay in the outbox table and the log'),
  MAIL_FROM: z.string().default('Job Fair <no-reply@jobfair.local>').describe('Sender of notification e-mails'),

  RATE_LIMIT_READ_PER_MIN: z.coerce.number().int().min(1).default(60).describe('Pure reads per token per minute'),
  RATE_LIMIT_WRITE_PER_MIN: z.coerce.number().int().min(1).default(30).describe('Writes per token per minute'),
  RATE_LIMIT_COST_PER_MIN: z.coerce
    .number()
    .int()
    .min(1)
    .default(3)
    .describe('Cost-bearing calls per token per minute'),
  RATE_LIMIT_PUBLIC_PER_MIN: z.coerce
    .number()
    .int()
    .min(1)
    .default(300)
    .describe('Public discovery calls per client IP per minute (in-process, per API replica)'),
  RATE_LIMIT_LEASE_MAX_CELLS: z.coerce
    .number()
    .int()
    .min(1)
    .max(1000)
    .default(16)
    .describe(
      'Token rate limits: most requests an API process takes from a shared bucket in one ' +
        'statement and serves without a round trip (a quarter of what is left, at least 1; 1 = one ' +
        'statement per request)',
    ),
  RATE_LIMIT_LEASE_TTL_MS: z.coerce
    .number()
    .int()
    .min(10)
    .max(10_000)
    .default(500)
    .describe(
      'Token rate limits: how long an API process may hold leased requests; unused ones go back ' +
        'to the shared bucket then (and at shutdown). Bounds how long a request can be refused ' +
        'while another replica holds unused ones',
    ),
  PUBLIC_CACHE_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(5000)
    .describe(
      'In-process cache of public discovery answers: longest life of an answer with live ' +
        'counters (live-now, event pages); search answers live until the data changes (0 = off)',
    ),
  PUBLIC_CACHE_VERSION_STALE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(10_000)
    .default(50)
    .describe(
      'Discovery cache: how old a read of the data version may be and still validate a cached ' +
        'answer; a write made by another process is seen within this bound (0 = strict: every ' +
        'request waits for a version read started after it arrived)',
    ),
  AUTH_CACHE_TTL_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(30_000)
    .describe(
      'How long the API may reuse a verified bearer token without reading it again (0 = read ' +
        'every request). Revocations reach every replica at once by PostgreSQL notification; this ' +
        'is the bound only for a change no trigger sees',
    ),
  QUEUE_STATUS_RATE_CACHE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .max(60_000)
    .default(2000)
    .describe(
      'Queue status: how long an API process reuses the recent match rate of a set of jobs while ' +
        'no match is made on their events (the 30-minute window slides meanwhile); the open jobs ' +
        'are reused while their version holds. 0 = read both for every request',
    ),
  QUEUE_STATUS_CACHE_MAX: z.coerce
    .number()
    .int()
    .min(1)
    .default(2000)
    .describe('Queue status: job lists and match rates an API process keeps at most (least recently used go)'),
  TOKEN_LAST_USED_THROTTLE_MS: z.coerce
    .number()
    .int()
    .min(0)
    .default(60_000)
    .describe('Minimum interval between last_used_at writes per token'),
  OAUTH_ACCESS_TOKEN_TTL_MS: durationMs
    .default(3_600_000)
    .describe('Lifetime of an access token issued by OAuth (short: the client refreshes it)'),
  OAUTH_REFRESH_TOKEN_TTL_MS: durationMs
    .default(30 * 86_400_000)
    .describe('Lifetime of an OAuth refresh token; each use rotates it (a new one, the old one refused)'),
  OAUTH_CODE_TTL_MS: durationMs.default(60_000).describe('Lifetime of an OAuth authorization code (single use)'),
  LOGIN_ATTEMPTS_PER_IP: z.coerce
    .number()
    .int()
    .min(1)
    .default(50)
    .describe(
      'Sign-in attempts per client IP across all accounts per 15 minutes (a burst of this many, ' +
        'then one per 15 min / limit): stops password spraying',
    ),
  SIGNUP_ATTEMPTS_PER_IP: z.coerce
    .number()
    .int()
    .min(1)
    .default(20)
    .describe(
      'Sign-up requests per client IP per 15 minutes (a burst of this many, then one per 15 min ' +
        '/ limit): each sends an e-mail',
    ),
  TEAM_INVITE_TTL_MS: durationMs.default(7 * 24 * 60 * 60 * 1000).describe('How long a team invite link stays valid'),

  BILLING_PROVIDER: z
    .enum(['local', 'stripe'])
    .optional()
    .describe(
      'Payments provider: local (built-in checkout page and test cards) or stripe; default ' +
        'stripe when STRIPE_SECRET_KEY is set, else local',
    ),
  STRIPE_SECRET_KEY: z.string().optional().describe('Stripe secret key (sk_test_… for test mode)'),
  STRIPE_WEBHOOK_SECRET: z
    .string()
    .optional()
    .describe('Signing secret of the Stripe webhook endpoint POST /stripe/webhook (whsec_…)'),
  STRIPE_API_BASE: z
    .url()
    .optional()
    .describe(
      'Where the Stripe SDK sends requests (e.g. stripe-mock at http://127.0.0.1:12111); default Stripe itself',
    ),
  STRIPE_TIMEOUT_MS: durationMs.default(10_000).describe('Per-request timeout of calls to Stripe'),
  BILLING_FREE_MAX_LIVE_EVENTS: z.coerce
    .number()
    .int()
    .min(1)
    .default(1)
    .describe('Live events at once on the free plan'),
  BILLING_CURRENCY: z
    .string()
    .regex(/^[a-z]{3}$/, 'an ISO 4217 code in lower case')
    .default('usd')
    .describe('Currency of the plan prices'),
  BILLING_PERIOD_MONTH_MS: durationMs
    .default(30 * 24 * 60 * 60 * 1000)
    .describe('Length of a monthly billing period (renewal timer)'),
  BILLING_PERIOD_YEAR_MS: durationMs
    .default(365 * 24 * 60 * 60 * 1000)
    .describe('Length of a yearly billing period (renewal timer)'),
  BILLING_DUNNING_SCHEDULE_MS: msList
    .default([3 * 86_400_000, 5 * 86_400_000, 7 * 86_400_000])
    .describe('Delays before retries of a failed renewal charge; when the last retry fails the team returns to free'),
  DEMO_SIMULATION: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      'npm start (development): run the demo fair simulator (simulated seekers, agents and ' +
        'recruiters); off = a still demo fair',
    ),
  DEMO_SIMULATION_TICK_MS: durationMs
    .default(4000)
    .describe('How often the demo simulator acts (one seeker joins, recruiters and seekers answer their matches)'),
  DEMO_RECRUITER_KEEPS_OWN_MATCHES: z
    .enum(['on', 'off'])
    .default('on')
    .describe(
      "npm start (development): the demo's simulated colleagues leave the matches offered to the " +
        'demo recruiter (Grace Hopper) for her to accept; off = they accept every match of the team',
    ),
});

export type Config = z.output<typeof configSchema> & { publicBaseUrl: string; billingProvider: 'local' | 'stripe' };

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

/**
 * Former names of renamed variables, still read when the new name is unset (the new name wins when
 * both are set). docs/configuration.md lists them.
 */
export const CONFIG_ALIASES = {
  OUTBOUND_HTTP_ALLOW_LOOPBACK: 'WEBHOOK_ALLOW_LOOPBACK',
} as const satisfies Partial<Record<keyof z.input<typeof configSchema>, string>>;
type FormerName = (typeof CONFIG_ALIASES)[keyof typeof CONFIG_ALIASES];

/** Parses the environment once; every bad variable is named in one error (by the name it was set under). */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<Record<keyof z.input<typeof configSchema> | FormerName, string>> = {},
): Config {
  const raw: Record<string, string | undefined> = {};
  /** The variable each value was read from, where that is a former name. */
  const setAs: Record<string, string> = {};
  const read = (key: string) => {
    const v = overrides[key as keyof typeof overrides] ?? env[key];
    return v === '' ? undefined : v;
  };
  for (const key of Object.keys(configSchema.shape)) {
    raw[key] = read(key);
    const former = (CONFIG_ALIASES as Record<string, string | undefined>)[key];
    if (raw[key] === undefined && former && read(former) !== undefined) {
      raw[key] = read(former);
      setAs[key] = former;
    }
  }
  const nameOf = (key: string) => setAs[key] ?? key;
  const parsed = configSchema.safeParse(raw);
  if (!parsed.success) {
    throw new ConfigError(
      parsed.error.issues.map((i) => {
        const key = String(i.path[0]);
        const name = i.path.length > 0 ? [nameOf(key), ...i.path.slice(1)].join('.') : '';
        return `${name}: ${i.message} (got ${JSON.stringify(raw[key])})`;
      }),
    );
  }
  const c = parsed.data;
  if (c.NODE_ENV === 'production' && !c.APP_SECRET)
    throw new ConfigError(['APP_SECRET: required when NODE_ENV=production']);
  if (c.NODE_ENV === 'production' && c.OUTBOUND_HTTP_ALLOW_LOOPBACK)
    throw new ConfigError([`${nameOf('OUTBOUND_HTTP_ALLOW_LOOPBACK')}: must be false when NODE_ENV=production`]);
  if (c.WEBHOOK_RETRY_SCHEDULE_MS.length !== 5)
    throw new ConfigError(['WEBHOOK_RETRY_SCHEDULE_MS: exactly five delays (retries 1..5)']);
  if (c.BILLING_PROVIDER === 'stripe' && !c.STRIPE_SECRET_KEY)
    throw new ConfigError(['STRIPE_SECRET_KEY: required when BILLING_PROVIDER=stripe']);
  if (c.ROOM_TURN_URLS.length && !c.ROOM_TURN_SECRET)
    throw new ConfigError(['ROOM_TURN_SECRET: required when ROOM_TURN_URLS is set']);
  if (c.ROOM_ICE_TRANSPORT_POLICY === 'relay' && !c.ROOM_TURN_URLS.length)
    throw new ConfigError(['ROOM_TURN_URLS: required when ROOM_ICE_TRANSPORT_POLICY=relay']);
  if (c.VIDEO_PROVIDER === 'livekit') {
    const missing = (['LIVEKIT_URL', 'LIVEKIT_API_KEY', 'LIVEKIT_API_SECRET'] as const).filter((k) => !c[k]);
    if (missing.length) throw new ConfigError(missing.map((k) => `${k}: required when VIDEO_PROVIDER=livekit`));
    if (c.VIDEO_PROVIDER_URL)
      throw new ConfigError(['VIDEO_PROVIDER_URL: not with VIDEO_PROVIDER=livekit (one room engine at a time)']);
  }
  const publicBaseUrl = (c.PUBLIC_BASE_URL ?? `http://localhost:${c.PORT}`).replace(/\/$/, '');
  return { ...c, publicBaseUrl, billingProvider: c.BILLING_PROVIDER ?? (c.STRIPE_SECRET_KEY ? 'stripe' : 'local') };
}

/** How the configuration page groups the variables: what production needs, what people commonly set, and the rest (tuning). */
export type ConfigGroup = 'required in production' | 'commonly set' | 'tuning';

const REQUIRED_IN_PRODUCTION: ReadonlySet<string> = new Set([
  'NODE_ENV',
  'APP_SECRET',
  'DATABASE_URL',
  'TEMPORAL_ADDRESS',
  'PUBLIC_BASE_URL',
  'SMTP_URL',
]);
const COMMONLY_SET: ReadonlySet<string> = new Set([
  'LOG_LEVEL',
  'LOG_FORMAT',
  'HOST',
  'PORT',
  'METRICS_PORT',
  'OTEL_EXPORTER_OTLP_ENDPOINT',
  'TRUST_PROXY',
  'DATA_DIR',
  'CACHE_DIR',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_TASK_QUEUE',
  'WORKER_BUILD_ID',
  'TEMPORAL_UI_URL',
  'VIDEO_PROVIDER_URL',
  'ROOM_STUN_URLS',
  'ROOM_TURN_URLS',
  'ROOM_TURN_SECRET',
  'VIDEO_PROVIDER',
  'LIVEKIT_URL',
  'LIVEKIT_API_KEY',
  'LIVEKIT_API_SECRET',
  'AI_PROVIDER_URL',
  'AI_PROVIDER_KEY',
  'AI_PROVIDER_MODEL',
  'MAIL_FROM',
  'BILLING_PROVIDER',
  'STRIPE_SECRET_KEY',
  'STRIPE_WEBHOOK_SECRET',
  'BILLING_CURRENCY',
  'DEMO_SIMULATION',
]);

export function describeConfig(): Array<{ name: string; default: string; description: string; group: ConfigGroup }> {
  return Object.entries(configSchema.shape).map(([name, schema]) => {
    // A prefault is the default as written in the environment (e.g. the floor brackets' text), not its parsed form.
    const zdef = (schema as z.ZodType)._zod.def as { type: string; defaultValue?: unknown };
    const def =
      zdef.type === 'prefault'
        ? { success: true as const, data: zdef.defaultValue }
        : (schema as z.ZodType).safeParse(undefined);
    return {
      name,
      default: def.success && def.data !== undefined ? String(def.data) : '',
      description: (schema as z.ZodType).description ?? '',
      group: REQUIRED_IN_PRODUCTION.has(name)
        ? 'required in production'
        : COMMONLY_SET.has(name)
          ? 'commonly set'
          : 'tuning',
    };
  });
}

/**
 * The server master key: APP_SECRET, or in development a random key kept in DATA_DIR/app-secret
 * (created once, so cursors and derived webhook keys survive restarts).
 */
export function appSecret(config: Pick<Config, 'APP_SECRET' | 'DATA_DIR' | 'NODE_ENV'>): string {
  if (config.APP_SECRET) return config.APP_SECRET;
  if (config.NODE_ENV === 'production') throw new ConfigError(['APP_SECRET: required when NODE_ENV=production']);
  const file = path.join(config.DATA_DIR, 'app-secret');
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    fs.mkdirSync(config.DATA_DIR, { recursive: true });
    try {
      fs.writeFileSync(file, randomBytes(32).toString('hex'), { mode: 0o600, flag: 'wx' });
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
    }
    return fs.readFileSync(file, 'utf8').trim();
  }
}
