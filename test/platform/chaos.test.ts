import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { exitOf, processEnv, startApi, type RunningProcess } from '../helpers/processes';
import { liveEvent } from '../events/helpers';
import { chaosTable, runChaos, startChaosReceiver, type Receiver } from '../helpers/chaos';

/**
 * The short chaos run inside `npm test` (decision 0164): one fault — the API process killed with
 * SIGKILL mid-load and restarted — while clients create jobs and send webhook test events with
 * Idempotency-Keys, retrying with the same key. Reconciled against PostgreSQL and the receiver's
 * log: nothing acknowledged is lost, nothing is done twice, every keyed retry answers within 5 s of
 * the API being back. The whole matrix (worker, API, PostgreSQL, Temporal) is `npm run chaos`.
 */
describe('chaos (short): kill -9 of the API mid-load', () => {
  let h: Harness;
  let rec: TestUser;
  let api: RunningProcess | undefined;
  let receiver: Receiver;
  const RETRIES = '200,500,1000,2000,4000';

  beforeAll(async () => {
    h = await createHarness({ env: { WEBHOOK_RETRY_SCHEDULE_MS: RETRIES } });
    rec = await h.recruiter();
    receiver = await startChaosReceiver();
  }, 60_000);
  afterAll(async () => {
    if (api && api.exitCode === null) api.kill('SIGKILL');
    await receiver?.close();
    await h?.close();
  });

  it('0 lost, 0 duplicated, keyed retries answer within 5 s of recovery', async () => {
    const { env, base } = await processEnv(h, { WEBHOOK_RETRY_SCHEDULE_MS: RETRIES, RATE_LIMIT_WRITE_PER_MIN: '100000', LOG_LEVEL: 'error' });
    api = await startApi(env, base);
    const ev = await liveEvent(h, rec);
    const hook = await fetch(`${base}/api/v1/webhooks`, {
      method: 'POST',
      headers: { authorization: `Bearer ${rec.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ target_url: receiver.url, events: ['match.matched'] }),
    });
    expect(hook.status).toBe(201);
    const webhookId = ((await hook.json()) as { id: string }).id;

    const result = await runChaos('api', {
      base: () => base,
      knex: h.knex,
      token: rec.token,
      eventId: ev.id,
      webhookId,
      receiver,
      jobs: 40,
      tests: 20,
      concurrency: 6,
      faultAfterMs: 1_500,
      downMs: 1_000,
      target: {
        fault: async () => {
          api!.kill('SIGKILL');
          await exitOf(api!);
        },
        recover: async () => {
          api = await startApi(env, base);
        },
      },
      settleMs: 60_000,
    });
    console.log(`chaos (short)\n${chaosTable([result])}`);
    expect(result).toMatchObject({ ops: 60, acknowledged: 60, lost: 0, duplicated: 0, gaveUp: 0, deliveriesDuplicatedBeyondAtLeastOnce: 0 });
    expect(result.recoveryMs).not.toBeNull();
    expect(result.recoveryMs!).toBeLessThanOrEqual(5_000);
  }, 240_000);
});
