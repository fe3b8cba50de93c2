import { parseArgs } from 'node:util';
import { loadConfig } from '../../../lib/config';
import { openServices } from './services';
import { AppError } from '../../../lib/errors';

const USAGE = `usage:
  npm run webhooks:replay -- --webhook whk_… --delivery dlv_…|evt_…     redeliver one dead letter
  npm run webhooks:replay -- --webhook whk_… --since <ISO date-time>     redeliver every dead letter since then
  add --dry-run to --since to list what would be replayed
  (npm run ops -- replay --help: the same for every subscription, dry run by default)`;

/**
 * Operator CLI: redelivers dead-lettered webhook deliveries as new workflow runs with the same
 * event id (the same use-case as POST /webhooks/{id}/deliveries/{deliveryId}/replay and
 * POST /webhooks/{id}/replay, without the owner check). Uses DATABASE_URL and TEMPORAL_ADDRESS
 * (defaults: the embedded PostgreSQL and dev server of `npm start`).
 */
async function main() {
  const { values } = parseArgs({
    options: { help: { type: 'boolean', short: 'h' }, webhook: { type: 'string' }, delivery: { type: 'string' }, since: { type: 'string' }, 'dry-run': { type: 'boolean' } },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  if (!values.webhook || (!values.delivery && !values.since) || (values.delivery && values.since)) {
    console.error(USAGE);
    process.exit(2);
  }
  const since = values.since ? new Date(values.since) : null;
  if (since && Number.isNaN(since.getTime())) {
    console.error(`--since: not a date-time: ${values.since}`);
    process.exit(2);
  }
  const config = loadConfig();
  const { services, close } = openServices(config);
  try {
    const service = services.webhooks;
    if (values.delivery) {
      const r = await service.replayOne(null, values.webhook, values.delivery);
      console.log(`replaying ${r.eventId} to ${values.webhook} as run ${r.run} (workflow webhook-delivery:${values.webhook}:${r.eventId})`);
      return;
    }
    if (values['dry-run']) {
      const rows = await services.deps.repos.webhooks.listDeadLettersSince(values.webhook, since!, 10_000);
      for (const d of rows) console.log(`${d.event_id}\t${d.event_type}\trun ${d.run}\tdead-lettered ${d.finished_at?.toISOString()}`);
      console.log(`${rows.length} dead letter(s) would be replayed`);
      return;
    }
    const r = await service.replaySince(null, values.webhook, since!);
    for (const x of r.replayed) console.log(`replaying ${x.eventId} as run ${x.run}`);
    for (const x of r.skipped) console.log(`skipped ${x} (a delivery run is open)`);
    console.log(`${r.replayed.length} replayed, ${r.skipped.length} skipped${r.more ? '; more remain: run again' : ''}`);
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err instanceof AppError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
});
