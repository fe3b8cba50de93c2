import { parseArgs } from 'node:util';

/** The usage of `npm run ops` and of each command (`--help`). */
export const HELP: Record<string, string> = {
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

export type OpsOptions = {
  help?: boolean;
  since?: string;
  webhook?: string;
  all?: boolean;
  execute?: boolean;
  'dry-run'?: boolean;
  delivery?: string;
  fix?: boolean;
};

/** The command line after the command's name; a bad option prints the command's usage and exits 2. */
export function parseOptions(command: string, rest: string[]): { values: OpsOptions; positionals: string[] } {
  try {
    return parseArgs({
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
}

/** A `--name` date-time option: the fallback when absent (or exit 2 without one), exit 2 when unreadable. */
export function dateArg(name: string, v: string | undefined, fallback?: Date): Date {
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
