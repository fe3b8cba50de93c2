import {
  pairKey,
  planByAssignment,
  planMatchesWith,
  BALANCE_POINTS,
  WAIT_POINTS,
  type PlanEntry,
  type PlanJob,
  type PlannerName,
} from '#activities/matchmaking/plan';
import { computeMatchScore, hardRemoteMismatch } from '#domain/matchmaking/match-score';
import { floorFor, passesFloor, type EventFloor } from '#domain/matchmaking/match-floor';
import { rng } from '#bench/support/fair-day-model';

/**
 * The planners' invariants as property tests over seeded random instances (fast-check is not a
 * dependency; each seed is printed on failure so a case can be replayed): whatever the entries,
 * jobs, free slots, exclusions and floors, a plan never plans an event beyond its free slots,
 * never gives an entry two pairs, never proposes an excluded pair, never a pair below its floor
 * or without an essential skill where the floor requires one, and only events in the entry's
 * scope. Both planners, so the assignment planner is held to every rule the greedy one is.
 */

const SKILLS = ['TypeScript', 'ts', 'PostgreSQL', 'postgres', 'Go', 'golang', 'Rust', 'React', 'Kubernetes', 'k8s'];
const BRACKETS = [
  { afterMs: 0, relax: 0, essential: true },
  { afterMs: 300_000, relax: 15, essential: true },
  { afterMs: 900_000, relax: 30, essential: false },
];
const NOW = 10_000_000;

function instance(seed: number) {
  const r = rng(seed);
  const pick = <T>(xs: readonly T[]) => xs[Math.floor(r() * xs.length)];
  const some = (n: number) => [...new Set(Array.from({ length: n }, () => pick(SKILLS)))];
  const nEvents = 1 + Math.floor(r() * 5);
  const events = Array.from({ length: nEvents }, (_, i) => `e${i}`);
  const openInvite = new Set(events.filter(() => r() < 0.7));
  const freeByEvent = new Map(events.map((e) => [e, Math.floor(r() * 4)]));
  const floors = new Map<string, EventFloor>(
    events.map((e) => [
      e,
      { minScore: pick([0, 40, 50, 70]), requireEssential: r() < 0.8, relaxEssential: r() < 0.3 } as EventFloor,
    ]),
  );
  const jobs: PlanJob[] = Array.from({ length: 1 + Math.floor(r() * 12) }, (_, i) => ({
    id: `j${i}`,
    liveEventId: pick(events),
    essentialSkills: some(Math.floor(r() * 3)),
    bonusSkills: some(Math.floor(r() * 2)),
    experienceMin: Math.floor(r() * 6),
    salaryMin: null,
    salaryMax: null,
    location: null,
    remotePreference: pick(['remote', 'hybrid', 'onsite']),
  }));
  const entries: PlanEntry[] = Array.from({ length: 1 + Math.floor(r() * 15) }, (_, i) => ({
    id: `q${i}`,
    userId: `u${i}`,
    liveEventId: r() < 0.3 ? pick(events) : null,
    enteredAtMs: NOW - Math.floor(r() * 1_500_000),
    seeker: {
      skills: some(1 + Math.floor(r() * 4)),
      experienceYears: Math.floor(r() * 8),
      location: null,
      remotePreference: pick(['fully_remote', 'hybrid', 'onsite']),
    },
  }));
  const excludedPairs = new Set<string>();
  for (const e of entries) for (const j of jobs) if (r() < 0.15) excludedPairs.add(pairKey(e.id, j.id));
  return { entries, jobs, freeByEvent, openInviteEventIds: openInvite, excludedPairs, floors };
}

type Instance = ReturnType<typeof instance>;

const floorOfPair = (inst: Instance, entry: PlanEntry, eventId: string) =>
  floorFor(inst.floors.get(eventId)!, NOW - entry.enteredAtMs, BRACKETS);

/** The candidate search's floor for an entry, as the round builds it (matchmaking-activities.ts). */
const searchFloor = (inst: Instance) => (entry: PlanEntry) => ({
  minScore: 0,
  passes: (job: PlanJob, score: number, essentialMatched: number) =>
    passesFloor(
      floorOfPair(inst, entry, job.liveEventId),
      score,
      essentialMatched,
      job.essentialSkills.length,
      hardRemoteMismatch(job.remotePreference, entry.seeker.remotePreference),
    ),
});

function checkPlan(inst: Instance, pairs: Awaited<ReturnType<typeof planMatchesWith>>, seed: number) {
  const ctx = `seed ${seed}`;
  const perEvent = new Map<string, number>();
  const perEntry = new Set<string>();
  for (const p of pairs) {
    perEvent.set(p.job.liveEventId, (perEvent.get(p.job.liveEventId) ?? 0) + 1);
    expect([ctx, perEntry.has(p.entry.id)]).toEqual([ctx, false]);
    perEntry.add(p.entry.id);
    expect([ctx, inst.excludedPairs.has(pairKey(p.entry.id, p.job.id))]).toEqual([ctx, false]);
    // Scope: an entry's own event, or an open-invite event for "any event".
    const inScope = p.entry.liveEventId
      ? p.job.liveEventId === p.entry.liveEventId
      : inst.openInviteEventIds.has(p.job.liveEventId);
    expect([ctx, inScope]).toEqual([ctx, true]);
    // Floors and essential skills, recomputed from scratch.
    const score = computeMatchScore(p.entry.seeker, p.job);
    const floor = floorOfPair(inst, p.entry, p.job.liveEventId);
    expect([ctx, score.score >= floor.min_score]).toEqual([ctx, true]);
    if (floor.essential_required && p.job.essentialSkills.length > 0)
      expect([ctx, score.breakdown.essential_skills.matched.length > 0]).toEqual([ctx, true]);
    expect([ctx, hardRemoteMismatch(p.job.remotePreference, p.entry.seeker.remotePreference)]).toEqual([ctx, false]);
  }
  for (const [event, n] of perEvent)
    expect([ctx, event, n <= inst.freeByEvent.get(event)!]).toEqual([ctx, event, true]);
}

describe.each<PlannerName>(['greedy', 'assignment'])('the %s planner on 300 seeded random instances', (planner) => {
  it('never plans a slot twice, an entry twice, an excluded pair, a pair below its floor or out of scope', async () => {
    let planned = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const inst = instance(seed);
      const pairs = await planMatchesWith(planner, { ...inst, floorOf: searchFloor(inst), nowMs: NOW });
      checkPlan(inst, pairs, seed);
      planned += pairs.length;
    }
    // The instances are not vacuous: plenty of pairs were planned and checked.
    expect(planned).toBeGreaterThan(300);
  });
});

describe('the assignment planner', () => {
  it('never does worse than greedy by more than its bonuses, and better on some instances', async () => {
    let better = 0;
    for (let seed = 1; seed <= 300; seed++) {
      const inst = instance(seed);
      const input = { ...inst, floorOf: searchFloor(inst), nowMs: NOW };
      const g = await planMatchesWith('greedy', input);
      const a = await planMatchesWith('assignment', input);
      // Greedy's pairs are a feasible assignment, so the optimum's weight (score plus at most
      // WAIT_POINTS + BALANCE_POINTS per pair) is at least greedy's score total.
      const sum = (xs: typeof g) => xs.reduce((n, p) => n + p.score.score, 0);
      if (a.length > g.length || sum(a) > sum(g) + 1e-9) better++;
      const bonus = (WAIT_POINTS + BALANCE_POINTS + 0.01) * a.length;
      expect([seed, sum(a) + bonus >= sum(g) - 1e-6]).toEqual([seed, true]);
    }
    expect(better).toBeGreaterThan(0);
  });

  it('gives each of two entries its only event where greedy lets the first take the slot the second needed', async () => {
    const job = (id: string, event: string, skills: string[]): PlanJob => ({
      id,
      liveEventId: event,
      essentialSkills: skills,
      bonusSkills: [],
      experienceMin: 0,
      salaryMin: null,
      salaryMax: null,
      location: null,
      remotePreference: 'remote',
    });
    const entry = (id: string, skills: string[], enteredAtMs: number): PlanEntry => ({
      id,
      userId: `u-${id}`,
      liveEventId: null,
      enteredAtMs,
      seeker: { skills, experienceYears: 5, location: null, remotePreference: 'fully_remote' },
    });
    // a fits A (100) and B (score of one of two skills); b fits only A. One slot each.
    const input = {
      entries: [entry('a', ['Go', 'Rust'], NOW - 1000), entry('b', ['Go'], NOW - 500)],
      jobs: [job('jA', 'A', ['Go']), job('jB', 'B', ['Rust', 'Kotlin'])],
      freeByEvent: new Map([
        ['A', 1],
        ['B', 1],
      ]),
      openInviteEventIds: new Set(['A', 'B']),
      excludedPairs: new Set<string>(),
      nowMs: NOW,
      // The default floor's essential-skill rule: b cannot take B (Rust, Kotlin).
      floorOf: () => ({
        minScore: 0,
        essentialRequired: true,
        passes: (j: PlanJob, _score: number, matched: number) => j.essentialSkills.length === 0 || matched > 0,
      }),
    };
    const greedy = await planMatchesWith('greedy', input);
    const assigned = await planMatchesWith('assignment', input);
    expect(greedy.map((p) => `${p.entry.id}:${p.job.liveEventId}`)).toEqual(['a:A']);
    expect(assigned.map((p) => `${p.entry.id}:${p.job.liveEventId}`).sort()).toEqual(['a:B', 'b:A']);
  });

  it('weighs waiting: of two equal fits for one slot, the one who waited longer', async () => {
    const pairs = await planByAssignment(
      ['new', 'old'].map((id, i) => ({
        entry: {
          id,
          userId: id,
          liveEventId: null,
          enteredAtMs: NOW - (i + 1) * 60_000,
          seeker: { skills: [], experienceYears: 0, location: null, remotePreference: null },
        },
        candidates: [
          {
            job: {
              id: 'j',
              liveEventId: 'E',
              essentialSkills: [],
              bonusSkills: [],
              experienceMin: 0,
              salaryMin: null,
              salaryMax: null,
              location: null,
              remotePreference: null,
            },
            score: { score: 70, version: 'v1', breakdown: {} as never },
          },
        ],
        complete: true,
      })),
      new Map([['E', 1]]),
      { nowMs: NOW, ttlMs: 600_000 },
    );
    expect(pairs.map((p) => p.entry.id)).toEqual(['old']);
  });
});
