import { parseArgs } from 'node:util';
import { loadConfig } from '#lib/config';
import { openServices } from './services';

/**
 * `npm run billing:reconcile [-- --older-than-ms 60000]`: settles upgrade charges that a crash left
 * between the provider's charge and our record (decision 0130). Uses DATABASE_URL / TEMPORAL_ADDRESS,
 * defaulting to `npm start`'s servers; safe to run again (each outcome is one event per charge).
 */
async function main() {
  const { values } = parseArgs({ options: { 'older-than-ms': { type: 'string', default: '60000' } } });
  const olderThanMs = Number(values['older-than-ms']);
  if (!Number.isInteger(olderThanMs) || olderThanMs < 0)
    throw new Error('--older-than-ms: a whole number of milliseconds');
  const { services, close } = openServices(loadConfig());
  try {
    const r = await services.billing.reconcile({ olderThanMs });
    console.log(
      `checked ${r.checked} open charge(s): ${r.succeeded} succeeded at the provider, ` +
        `${r.declined} declined or never sent, ${r.waiting} still waiting for authentication`,
    );
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
