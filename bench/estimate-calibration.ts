/**
 * Calibration of `estimated_wait_seconds` (the wait estimate the queue answers with), as a discrete-event simulation that
 * replays an arrival pattern through the estimate's own code (`estimateWaitSeconds`, the function
 * the API answers with) — no servers, seconds to run, deterministic for a seed.
 *
 * The pattern (seeded): a 4-hour event with S interview slots; arrivals in three phases (a morning
 * rush, a lull, an afternoon wave: `--rate` seekers per minute scaled 1.5× / 0.5× / 1×); each match
 * holds its slot for an interview of 5–25 minutes (uniform), oldest waiting first. At each join the
 * estimate is computed as the API does (position ÷ matches of the last 30 min over max(span, 60 s);
 * null with fewer than 3), then compared with the wait that followed.
 * Reports, over joins that got an estimate: the share of real waits within ±50 % of it and within a
 * factor of 2, and how many joins had none.
 *
 *   npm run bench -- estimate-calibration [--slots 20] [--rate 2] [--seed 42]
 */
import { estimateWaitSeconds, WAIT_ESTIMATE_WINDOW_MS } from '#apps/api/src/queue/queue-service';
import { parseBenchArgs, runMain } from './support/runner';

interface Options {
  slots: number;
  rate: number;
  seed: number;
}

interface Seeker {
  at: number;
  estimate: number | null;
  matchedAt: number | null;
}

const HOURS = 4;
const END_MS = HOURS * 3600_000;

/** The arrival pattern, recorded once from the seed (then replayed), and the generator for interview lengths. */
function arrivalPattern(o: Options): { arrivals: number[]; rand: () => number } {
  let seed = o.seed;
  const rand = () => (seed = (seed * 48271) % 2147483647) / 2147483647;
  const expo = (mean: number) => -Math.log(1 - rand()) * mean;
  const rateAt = (t: number) => (o.rate / 60_000) * (t < END_MS * 0.25 ? 1.5 : t < END_MS * 0.5 ? 0.5 : 1);
  const arrivals: number[] = [];
  for (let t = 0; ;) {
    t += expo(1 / rateAt(t));
    if (t >= END_MS) break;
    arrivals.push(t);
  }
  return { arrivals, rand };
}

/** Steps through time in 1-second ticks: arrivals join, free slots take the oldest waiting seeker. */
function simulate(o: Options): Seeker[] {
  const { arrivals, rand } = arrivalPattern(o);
  const waiting: Seeker[] = [];
  const seekers: Seeker[] = [];
  const matchTimes: number[] = [];
  const slotFreeAt: number[] = Array.from({ length: o.slots }, () => 0);
  let next = 0;
  for (let now = 0; now < END_MS + 3600_000; now += 1000) {
    while (next < arrivals.length && arrivals[next] <= now) {
      const s: Seeker = { at: arrivals[next++], estimate: null, matchedAt: null };
      const recent = matchTimes.filter((m) => m > now - WAIT_ESTIMATE_WINDOW_MS);
      const position = waiting.length + 1;
      // As the API: free slots for everyone ahead → two matchmaker intervals (2 s default); else the rate.
      const free = slotFreeAt.filter((f) => f <= now).length;
      s.estimate =
        free >= position
          ? 4
          : estimateWaitSeconds(position, {
              count: recent.length,
              firstAtMs: recent.length ? recent[0] : null,
              nowMs: now,
            });
      waiting.push(s);
      seekers.push(s);
    }
    for (let i = 0; i < slotFreeAt.length && waiting.length; i++) {
      if (slotFreeAt[i] > now) continue;
      const s = waiting.shift()!;
      s.matchedAt = now;
      matchTimes.push(now);
      slotFreeAt[i] = now + (5 + rand() * 20) * 60_000;
    }
  }
  return seekers;
}

function report(o: Options, seekers: Seeker[]): void {
  const withEstimate = seekers.filter((s) => s.estimate !== null && s.matchedAt !== null);
  const within = (f: (est: number, real: number) => boolean) =>
    withEstimate.filter((s) => f(s.estimate!, (s.matchedAt! - s.at) / 1000)).length / Math.max(1, withEstimate.length);
  const asPercent = (x: number) => `${(100 * x).toFixed(1)} %`;
  console.log(
    `Estimate calibration: ${HOURS} h, ${o.slots} slots, ${o.rate}/min base arrival rate ` +
      `(×1.5, ×0.5, ×1), interviews 5–25 min, seed ${o.seed}`,
  );
  console.log(
    `  joins ${seekers.length}, matched ${seekers.filter((s) => s.matchedAt !== null).length}, ` +
      `with an estimate ${withEstimate.length}, not matched by the end or no estimate (too ` +
      `little data) ${seekers.length - withEstimate.length}`,
  );
  console.log(
    `  real wait within ±50 % of the estimate: ` +
      `${asPercent(within((e, r) => Math.abs(r - e) <= Math.max(30, 0.5 * e)))}   (±30 s floor ` +
      `for short waits)`,
  );
  console.log(
    `  real wait within ×/÷ 2 of the estimate: ` +
      `${asPercent(within((e, r) => r <= Math.max(60, 2 * e) && r >= e / 2 - 30))}`,
  );
  console.log(
    `  estimate too low (real > 2× est): ` +
      `${asPercent(within((e, r) => r > Math.max(60, 2 * e)))}   too high (real < est/2): ` +
      `${asPercent(within((e, r) => r < e / 2 - 30))}`,
  );
}

runMain(async () => {
  const o = parseBenchArgs<Options>(
    process.argv.slice(2),
    'estimate-calibration',
    { slots: 20, rate: 2, seed: 42 },
    { '--slots': 'slots', '--rate': 'rate', '--seed': 'seed' },
  );
  report(o, simulate(o));
});
