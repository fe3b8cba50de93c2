import { parseArgs } from 'node:util';
import { Client } from '@temporalio/client';
import { loadConfig } from '#lib/config';
import { AppError } from '#lib/errors';
import { lazyClosable } from '#lib/temporal-connection';
import { openServices, scriptTemporalAddress } from './services';
import { describeDrift, reconcile, why, type OpsContext } from './ops-commands';
import { retentionReport } from './retention-report';

/**
 * `npm run ops -- <command>`: the operator's chair. Uses DATABASE_URL and TEMPORAL_ADDRESS
 * (defaults: the embedded PostgreSQL and dev server of `npm start`); `why` and `reconcile` query
 * running workflows, so a worker must be running (it answers queries).
 */
const HELP: Record<string, string> = {
  '': `usage: npm run ops -- <command> [options]    (every command takes --help)

commands:
  why <id|e-mail|workflow id>            what it is, what it waits for, its timers and deadlines
  dead-letters [--since <time>] [--webhook whk_…]   webhook deliveries that gave up (not yet replayed)
  replay (--webhook whk_…|--all) --since <time> [--execute]   redeliver dead letters (dry run unless --execute)
  replay --webhook whk_… --delivery dlv_…|evt_… [--execute]    redeliver one dead letter
  reconcile [--since <time>] [--fix]     compare PostgreSQL projections with workflow state; --fix repairs
  retention                              the retention workflow's last pass and rows past their retention now`,
  why: `usage: npm run ops -- why <match-id|queue-entry-id|user-id|e-mail|queue-entry:<userId>|match:<matchId>>

Explains in words, with times in your local time zone (set TZ to change it):
  a match: its status, which side it waits for, when the acceptance window or interview ends;
  a queue entry: its position, expiry, and what blocks an offer — the same explanation as the
  seeker's GET /queue/status (below the floor until a time, no free slot, recruiters busy or
  unavailable, no eligible job, event not live) and the estimate that goes with it;
  a user (id or e-mail): their latest queue entry and open matches.
Workflow ids as the Temporal UI shows them work too: queue-entry:<userId>, match:<matchId>.
Something nobody knows: a message and exit code 1.`,
  'dead-letters': `usage: npm run ops -- dead-letters [--since <ISO time>] [--webhook whk_…]

Lists webhook deliveries whose latest run is a dead letter (a replayed one is no longer listed).
  --since    only those that gave up at or after this time (default: the last 7 days)
  --webhook  only this subscription`,
  replay: `usage: npm run ops -- replay (--webhook whk_…|--all) --since <ISO time> [--execute]
       npm run ops -- replay --webhook whk_… --delivery dlv_…|evt_… [--execute]

Redelivers every dead letter since that time, or the one named by --delivery (any dlv_… of its
delivery log, or its event id), as a new run with the same event id.
Without --execute, or with --dry-run, it only lists what it would replay (a dry run).
  --webhook  one subscription;  --all  every subscription with dead letters
npm run webhooks:replay is this command with --execute (add --dry-run for a dry run).`,
  retention: `usage: npm run ops -- retention

Says whether the retention workflow (retention:<task queue>) runs, what it last reported (passes,
rows deleted per table, the next pass), and how many rows are past their retention right now per
table, with this process's retention settings (counted up to 100000 each).`,
  reconcile: `usage: npm run ops -- reconcile [--since <ISO time>] [--fix]

Compares the PostgreSQL projections (open matches and queue entries, and rows updated since --since;
live and paused events; webhook subscriptions) with the state of the workflows that own them, and
lists every drift.
  --fix  re-projects each drifted match, queue entry and webhook subscription from its workflow
         (the owner); a subscription whose workflow is missing gets it started from its row, and a
         subscription workflow whose row is gone is ended (delete); live events are reported only`,
};

function dateArg(name: string, v: string | undefined, fallback?: Date): Date {
  if (v === undefined) {
    if (fallback) return fallback;
    console.error(`--${name} is required`);
    process.exit(2);
  }
  const d = new Date(v);
  if (Number.isNaN(d.getTime())) {
    console.error(`--${name}: not a date-time: ${v} (e.g. 2026-11-22T14:00:00Z)`);
    process.exit(2);
  }
  return d;
}

async function main() {
  const [command = '', ...rest] = process.argv.slice(2);
  if (command === '--help' || command === '-h' || command === 'help' || command === '') {
    console.log(HELP['']);
    process.exit(command ? 0 : 2);
  }
  if (!(command in HELP)) {
    console.error(`unknown command: ${command}\n\n${HELP['']}`);
    process.exit(2);
  }
  let parsed;
  try {
    parsed = parseArgs({
      args: rest,
      allowPositionals: command === 'why',
      options: {
        help: { type: 'boolean', short: 'h' },
        since: { type: 'string' },
        webhook: { type: 'string' },
        all: { type: 'boolean' },
        execute: { type: 'boolean' },
        'dry-run': { type: 'boolean' },
        delivery: { type: 'string' },
        fix: { type: 'boolean' },
      },
      strict: true,
    });
  } catch (err) {
    console.error(`${(err as Error).message}\n\n${HELP[command]}`);
    process.exit(2);
  }
  const { values, positionals } = parsed;
  if (values.help) {
    console.log(HELP[command]);
    return;
  }

  const config = loadConfig();
  const { services, close } = openServices(config);
  const temporal = lazyClosable({ address: scriptTemporalAddress(config) });
  const ctx: OpsContext = {
    services,
    temporal: new Client({ connection: temporal.connection, namespace: config.TEMPORAL_NAMESPACE }),
  };
  try {
    if (command === 'why') {
      if (positionals.length !== 1) {
        console.error(HELP.why);
        process.exit(2);
      }
      for (const line of await why(ctx, positionals[0])) console.log(line);
    } else if (command === 'dead-letters') {
      const since = dateArg('since', values.since, new Date(Date.now() - 7 * 24 * 3600 * 1000));
      const subs = values.webhook ? [values.webhook] : await subscriptionsWithDeadLetters(ctx, since);
      let n = 0;
      for (const sub of subs) {
        for (const d of await services.deps.repos.webhooks.listDeadLettersSince(sub, since, 10_000)) {
          n++;
          console.log(
            `${sub}\t${d.event_id}\t${d.event_type}\trun ${d.run}\t${d.attempts} attempts\tlast HTTP ` +
              `${d.last_http_status ?? d.last_error_kind ?? '-'}\tgave up ${d.finished_at?.toISOString()}`,
          );
        }
      }
      console.log(`${n} dead letter(s) since ${since.toISOString()}${values.webhook ? ` for ${values.webhook}` : ''}`);
    } else if (command === 'replay') {
      if (!values.webhook === !values.all) {
        console.error(`give --webhook whk_… or --all\n\n${HELP.replay}`);
        process.exit(2);
      }
      // --dry-run wins over --execute: `npm run webhooks:replay` is this command with --execute.
      const execute = values.execute === true && values['dry-run'] !== true;
      if (values.delivery !== undefined) {
        if (!values.webhook || values.since !== undefined) {
          console.error(`--delivery names one dead letter of one --webhook (no --since)\n\n${HELP.replay}`);
          process.exit(2);
        }
        if (execute) {
          const r = await services.webhooks.replayOne(null, values.webhook, values.delivery);
          console.log(
            `replaying ${r.eventId} to ${values.webhook} as run ${r.run} (workflow webhook-delivery:${values.webhook}:${r.eventId})`,
          );
        } else {
          console.log(await describeReplayOne(ctx, values.webhook, values.delivery));
        }
        return;
      }
      const since = dateArg('since', values.since);
      const subs = values.webhook ? [values.webhook] : await subscriptionsWithDeadLetters(ctx, since);
      let replayed = 0;
      let pending = 0;
      for (const sub of subs) {
        if (!execute) {
          const rows = await services.deps.repos.webhooks.listDeadLettersSince(sub, since, 10_000);
          for (const d of rows)
            console.log(`would replay ${sub}\t${d.event_id}\t${d.event_type}\trun ${d.run} → ${d.run + 1}`);
          pending += rows.length;
          continue;
        }
        const r = await services.webhooks.replaySince(null, sub, since);
        for (const x of r.replayed) console.log(`replaying ${sub}\t${x.eventId}\tas run ${x.run}`);
        for (const x of r.skipped) console.log(`skipped ${sub}\t${x}\t(a delivery run is open)`);
        replayed += r.replayed.length;
        if (r.more) console.log(`${sub}: more remain; run again`);
      }
      console.log(
        execute
          ? `${replayed} replayed`
          : `dry run: ${pending} dead letter(s) would be replayed; add --execute to replay them`,
      );
    } else if (command === 'retention') {
      for (const line of await retentionReport(ctx, config)) console.log(line);
    } else if (command === 'reconcile') {
      const since = values.since ? dateArg('since', values.since) : undefined;
      const drift = await reconcile(ctx, { fix: values.fix === true, ...(since ? { since } : {}) });
      for (const d of drift) console.log(describeDrift(d));
      console.log(
        drift.length
          ? `${drift.length} drift(s)${values.fix ? '' : '; --fix repairs matches, queue entries and webhook subscriptions from their workflows'}`
          : 'no drift: every projection matches its workflow',
      );
      if (drift.some((d) => !d.fixed)) process.exitCode = 1;
    }
  } finally {
    await temporal.close();
    await close();
  }
}

/** The dry run of `replay --delivery`: what a replay of that delivery would do (the checks replayOne makes on the delivery). */
async function describeReplayOne(ctx: OpsContext, webhookId: string, deliveryRef: string): Promise<string> {
  const repo = ctx.services.deps.repos.webhooks;
  const eventId = deliveryRef.startsWith('dlv_')
    ? (await repo.findAttempt(webhookId, deliveryRef))?.event_id
    : deliveryRef;
  const latest = eventId ? await repo.latestRun(webhookId, eventId) : undefined;
  if (!eventId || !latest) return `dry run: no delivery ${deliveryRef} to ${webhookId}`;
  if (latest.state !== 'dead_letter')
    return `dry run: the delivery of ${eventId} to ${webhookId} is ${latest.state}; only dead letters can be replayed`;
  return (
    `would replay ${webhookId}\t${eventId}\t${latest.event_type}\trun ${latest.run} → ` +
    `${latest.run + 1}\ndry run: 1 dead letter(s) would be replayed; add --execute to replay it`
  );
}

/** Subscriptions with a dead letter since then (the latest-run check is per subscription, in the repository). */
async function subscriptionsWithDeadLetters(ctx: OpsContext, since: Date): Promise<string[]> {
  const rows: Array<{ subscription_id: string }> = await ctx.services.deps
    .knex('webhook_deliveries')
    .where('state', 'dead_letter')
    .andWhere('finished_at', '>=', since)
    .distinct('subscription_id');
  return rows.map((r) => r.subscription_id);
}

main().catch((err) => {
  console.error(err instanceof AppError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
});
