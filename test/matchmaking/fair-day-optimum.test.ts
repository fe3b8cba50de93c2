import { solveBMatching, bMatchingModel } from '#activities/matchmaking/b-matching';
import {
  generateDay,
  offlineOptimum,
  eligibleJobs,
  openEligibleJobs,
  slotTime,
  decide,
  offerOutcome,
  onlineReference,
  type Day,
  type DayShape,
} from '#bench/support/fair-day-model';
import { computeMatchScore } from '#domain/matchmaking/match-score';

/**
 * The fair-day bench's offline optimum and the b-matching it is solved with (HiGHS), on instances
 * small enough that the optimum is known by hand: if the model or the solver's wiring were wrong
 * (a constraint dropped, a variable misread, the objective minimised), these answers would change.
 */

describe('b-matching by HiGHS, optima known by hand', () => {
  it('prefers two good pairs to one best pair (greedy would take a–X = 10)', async () => {
    const r = await solveBMatching({
      edges: [
        { left: 'a', right: 'X', weight: 10 },
        { left: 'a', right: 'Y', weight: 9 },
        { left: 'b', right: 'X', weight: 8 },
      ],
    });
    expect(r.chosen).toEqual([1, 2]);
    expect(r.total).toBe(17);
  });

  it('respects capacities on both sides', async () => {
    // X takes two, Y one; a may take two; everything else one. Best: a–X 5, a–Y 4, b–X 3 = 12 (c–X 2 loses to b–X).
    const edges = [
      { left: 'a', right: 'X', weight: 5 },
      { left: 'a', right: 'Y', weight: 4 },
      { left: 'b', right: 'X', weight: 3 },
      { left: 'c', right: 'X', weight: 2 },
      { left: 'b', right: 'Y', weight: 1 },
    ];
    const r = await solveBMatching({
      edges,
      leftCapacity: new Map([['a', 2]]),
      rightCapacity: new Map([['X', 2]]),
    });
    expect(r.total).toBe(12);
    expect(r.chosen).toEqual([0, 1, 2]);
  });

  it('solves a 3×3 assignment whose best permutation is known (15)', async () => {
    // weights[i][j]; the best permutation is (0→2, 1→1, 2→0): 4 + 6 + 5 = 15 (every other permutation is lower).
    const w = [
      [3, 2, 4],
      [2, 6, 1],
      [5, 1, 2],
    ];
    const edges = w.flatMap((row, i) => row.map((weight, j) => ({ left: `r${i}`, right: `c${j}`, weight })));
    const r = await solveBMatching({ edges });
    expect(r.total).toBe(15);
    expect(r.chosen.map((k) => [edges[k].left, edges[k].right])).toEqual([
      ['r0', 'c2'],
      ['r1', 'c1'],
      ['r2', 'c0'],
    ]);
  });

  it('never chooses an edge of weight 0 or less, and answers an empty matching without a solve', async () => {
    expect(await solveBMatching({ edges: [{ left: 'a', right: 'X', weight: 0 }] })).toEqual({ chosen: [], total: 0 });
    const r = await solveBMatching({
      edges: [
        { left: 'a', right: 'X', weight: -3 },
        { left: 'b', right: 'X', weight: 0.5 },
      ],
    });
    expect(r.chosen).toEqual([1]);
    expect(bMatchingModel({ edges: [{ left: 'a', right: 'X', weight: -3 }] })).not.toContain('3 x0');
  });
});

const BRACKETS = [
  { afterMs: 0, relax: 0, essential: true },
  { afterMs: 5 * 60_000, relax: 15, essential: true },
  { afterMs: 15 * 60_000, relax: 30, essential: false },
];

/** A day by hand: one recruiter, one interview slot, 30-minute interviews, a 60-minute day: two windows. */
function handDay(): Day {
  const shape: DayShape = {
    seed: 1,
    dayMinutes: 60,
    recruiters: 2,
    demand: 1,
    ttlMinutes: 20,
    floor: { minScore: 50, requireEssential: true },
    brackets: BRACKETS,
  };
  const job = (idx: number, recruiter: number, essential: string[]) => ({
    idx,
    recruiter,
    title: `job ${idx}`,
    job: {
      essentialSkills: essential,
      bonusSkills: [],
      experienceMin: 0,
      salaryMin: null,
      salaryMax: null,
      location: null,
      remotePreference: 'remote',
    },
  });
  const jobs = [job(0, 0, ['TypeScript', 'PostgreSQL']), job(1, 1, ['Rust'])];
  const seeker = (idx: number, arriveMinute: number, skills: string[], recruiter: number | null = null) => ({
    idx,
    arriveMinute,
    recruiter,
    seeker: { skills, experienceYears: 5, location: null, remotePreference: 'fully_remote' },
  });
  return {
    shape,
    // Recruiter 1 has a slot but only a Rust job nobody here can do.
    recruiters: [
      { idx: 0, capacity: 1, interviewMinutes: 30, jobs: [jobs[0]] },
      { idx: 1, capacity: 1, interviewMinutes: 30, jobs: [jobs[1]] },
    ],
    jobs,
    seekers: [
      // Present 0–20: window 0 only; both skills (score 100).
      seeker(0, 0, ['ts', 'Postgres']),
      // Present 5–25: window 0 only; one of two essential skills.
      seeker(1, 5, ['TypeScript']),
      // Present 35–55: window 1 only; one of two essential skills.
      seeker(2, 35, ['postgresql']),
      // Present 36–56: window 1; no essential skill of job 0, never eligible.
      seeker(3, 36, ['Go']),
      // Scoped to recruiter 1 (Rust): no shared skill, no edge.
      seeker(4, 1, ['TypeScript'], 1),
    ],
    slots: 4,
  };
}

describe('the offline optimum of a day, by hand', () => {
  const everyoneInterviews = () => true;

  it('one interview per window per slot: one of seekers 0 and 1, and seeker 2; the best score takes seeker 0', async () => {
    const day = handDay();
    const opt = await offlineOptimum(day, everyoneInterviews);
    expect(opt.interviews).toBe(2);
    expect(opt.scoreSolution.map((e) => [e.seeker, e.recruiter, e.window]).sort()).toEqual([
      [0, 0, 0],
      [2, 0, 1],
    ]);
    const score = (s: number) => computeMatchScore(day.seekers[s].seeker, day.jobs[0].job).score;
    expect(score(0)).toBe(100);
    expect(opt.totalScore).toBeCloseTo(score(0) + score(2), 6);
    expect(opt.perRecruiter).toEqual([2, 0]);
  });

  it('a pair that would not interview (a decline, a no-show) is left out', async () => {
    const day = handDay();
    const opt = await offlineOptimum(day, (s) => s !== 0);
    expect(opt.scoreSolution.map((e) => e.seeker).sort()).toEqual([1, 2]);
  });

  it('a second slot lets both early seekers in; a longer stay lets one move to the second window', async () => {
    const two = handDay();
    two.recruiters[0].capacity = 2;
    expect((await offlineOptimum(two, everyoneInterviews)).interviews).toBe(3);
    const long = handDay();
    long.shape.ttlMinutes = 40; // seeker 1 stays 5–45: window 1 too, but seeker 2 and 3 compete there
    // Window 0: seeker 0; window 1: seeker 1 or 2 (seeker 3 has no essential skill). Still 2 with one slot.
    expect((await offlineOptimum(long, everyoneInterviews)).interviews).toBe(2);
  });

  it('eligible jobs follow the floor and the scope', () => {
    const day = handDay();
    expect(eligibleJobs(day, 0)).toEqual([0]);
    expect(eligibleJobs(day, 3)).toEqual([]);
    expect(eligibleJobs(day, 4)).toEqual([]);
  });

  it('an eligible job already offered (declined, expired) is no longer open to the seeker', () => {
    const day = handDay();
    expect(openEligibleJobs(day, 0, new Set())).toEqual([0]);
    // Offered job 1 (not eligible) leaves job 0 open; offered job 0 leaves nothing.
    expect(openEligibleJobs(day, 0, new Set([1]))).toEqual([0]);
    expect(openEligibleJobs(day, 0, new Set([0]))).toEqual([]);
  });

  it("slot time adds up: interviewing, deciding, to the room and free make each recruiter's capacity × day", () => {
    const day = handDay();
    const none = {
      accepted: null,
      declined: null,
      expired: null,
      interviewStarted: null,
      completed: null,
      noShow: null,
    };
    const times = slotTime(day, [
      // Offered at 0, accepted at 4, both in the room at 5, ended at 35.
      { ...none, recruiter: 0, created: 0, accepted: 4, interviewStarted: 5, completed: 35 },
      // Offered at 40, declined at 43.
      { ...none, recruiter: 0, created: 40, declined: 43 },
      // Offered at 50, still undecided at closing (60).
      { ...none, recruiter: 0, created: 50 },
      // Recruiter 1: accepted at 10, nobody came, no-show at 20.
      { ...none, recruiter: 1, created: 8, accepted: 10, noShow: 20 },
    ]);
    expect(times).toEqual([
      { total: 60, interviewing: 30, deciding: 4 + 3 + 10, toRoom: 1, free: 60 - 30 - 17 - 1 },
      { total: 60, interviewing: 0, deciding: 2, toRoom: 10, free: 48 },
    ]);
  });
});

describe('the online reference (offers made before their answers are known), by hand', () => {
  it("an offer's outcome is the expectation of the simulated humans' answers", () => {
    // Score 100: seeker accepts 0.96 × 0.95, recruiter 0.95, both come 0.95.
    expect(offerOutcome(100, 15, 10).interview).toBeCloseTo(0.96 * 0.95 * 0.95 * 0.95, 9);
    // Score 40: seeker accepts 0.96 × 0.35 = 0.336, declines 0.624, ignores 0.04; recruiter accepts 0.5.
    // Both accept 0.168: the later of two answers (3.1667) + the walk (0.5) + 5 % no-show × 10 = 4.1667;
    // one declines, the other accepts or ignores (0.5): the decliner's answer, 2.5 on average;
    // both decline 0.312: the sooner, 1.8333; ignored and accepted 0.02: the 15-minute window.
    expect(offerOutcome(40, 15, 10).hold).toBeCloseTo(
      0.168 * (0.5 + 8 / 3 + 0.5 + 0.05 * 10) + 0.5 * 2.5 + 0.312 * (0.5 + 4 / 3) + 0.02 * 15,
      9,
    );
    expect(offerOutcome(40, 5, 10).hold).toBeCloseTo(offerOutcome(40, 15, 10).hold - 0.02 * 10, 9);
  });

  it('with certain answers and free decisions it is the hindsight optimum (2 interviews, seekers 0 and 2)', async () => {
    const day = handDay();
    const ref = await onlineReference(day, () => ({ interview: 1, hold: 0 }));
    const score = (s: number) => computeMatchScore(day.seekers[s].seeker, day.jobs[0].job).score;
    expect(ref.interviews).toBeCloseTo(2, 6);
    expect(ref.totalScore).toBeCloseTo(score(0) + score(2), 6);
  });

  it('charges every offer its hold: half the offers interview, each holds 24 minutes, the slot has 60 + 30', async () => {
    // Recruiter 0: one slot, 30-minute interviews, a 60-minute day; offers of seekers 0, 1 (window 0) and
    // 2 (window 1). Each offer costs 0.5 × 30 + 24 = 39 slot minutes of 90: 90 / 39 = 2.3077 offers,
    // 1.1538 interviews. By score: seeker 0 (100) whole, the better of 1 and 2 whole, the rest of the other.
    const day = handDay();
    const ref = await onlineReference(day, () => ({ interview: 0.5, hold: 24 }));
    const score = (s: number) => computeMatchScore(day.seekers[s].seeker, day.jobs[0].job).score;
    const [lo, hi] = [score(1), score(2)].sort((a, b) => a - b);
    expect(ref.interviews).toBeCloseTo((0.5 * 90) / 39, 6);
    expect(ref.totalScore).toBeCloseTo(0.5 * (100 + hi + (90 / 39 - 2) * lo), 6);
    expect(ref.offers).toBeCloseTo(90 / 39, 6);
  });

  it("a seeker's two offers give at most the chance that one would accept (0.75 for two halves, not 1)", async () => {
    const day = handDay();
    // A second TypeScript job at recruiter 0, and two slots: only seeker 0's chances limit it in window 0.
    day.jobs.push({ ...day.jobs[0], idx: 2, title: 'job 2', job: { ...day.jobs[0].job, essentialSkills: ['ts'] } });
    day.recruiters[0].jobs.push(day.jobs[2]);
    day.recruiters[0].capacity = 2;
    day.seekers = [day.seekers[0]];
    const ref = await onlineReference(day, () => ({ interview: 0.5, hold: 0 }));
    expect(ref.interviews).toBeCloseTo(0.75, 6);
  });
});

describe('the seeded day', () => {
  const shape: DayShape = {
    seed: 7,
    dayMinutes: 240,
    recruiters: 5,
    demand: 3,
    ttlMinutes: 120,
    floor: { minScore: 50, requireEssential: true },
    brackets: BRACKETS,
  };

  it('is the same for the same seed, and its decisions are the pair’s, not the order they are asked in', () => {
    const a = generateDay(shape);
    const b = generateDay(shape);
    expect(JSON.stringify(a)).toBe(JSON.stringify(b));
    expect(a.seekers.length).toBe(Math.round(3 * a.slots));
    expect(decide(a, 3, 1)).toEqual(decide(b, 3, 1));
    expect(JSON.stringify(generateDay({ ...shape, seed: 8 }))).not.toBe(JSON.stringify(a));
  });

  it('has its optimum bounded by the slots and the seekers, and max score no more interviews than max count', async () => {
    const day = generateDay({ ...shape, dayMinutes: 120, demand: 1 });
    const opt = await offlineOptimum(day);
    expect(opt.interviews).toBeGreaterThan(0);
    expect(opt.interviews).toBeLessThanOrEqual(Math.min(day.seekers.length, day.slots + day.recruiters.length * 3));
    expect(opt.scoreSolution.length).toBeLessThanOrEqual(opt.interviews);
    expect(new Set(opt.scoreSolution.map((e) => e.seeker)).size).toBe(opt.scoreSolution.length);
  });
});
