/**
 * The fair day of `npm run bench -- fair-day` as data, pure: the seeded population (recruiters,
 * their jobs, seekers and when they arrive), the humans' decisions (accept, decline and why,
 * ignore, no-show: a function of the pair and the seed, so every planner meets the same people),
 * and the offline optimum of the day (every arrival and decision known in hindsight), solved as a
 * max-weight b-matching by HiGHS (activities/matchmaking/b-matching.ts).
 */
import { SHIPPED_SKILL_VOCABULARY } from '#domain/matchmaking/skills';
import {
  computeMatchScore,
  hardRemoteMismatch,
  type JobForScore,
  type MatchScore,
  type SeekerForScore,
} from '#domain/matchmaking/match-score';
import { floorFor, passesFloor, type EventFloor } from '#domain/matchmaking/match-floor';
import type { FloorBracket } from '#lib/config';
import { solveBMatching, solver, type BEdge } from '#activities/matchmaking/b-matching';

/** Times are simulated minutes from the fair's opening. */
export interface DayShape {
  seed: number;
  /** Length of the fair day. */
  dayMinutes: number;
  recruiters: number;
  /** Seekers per interview the day allows (3 = seekers outnumber slots 3:1; 0.5 = slots outnumber seekers 2:1). */
  demand: number;
  /** How long a queue entry waits (QUEUE_ENTRY_TTL_MS). */
  ttlMinutes: number;
  floor: EventFloor;
  /** MATCH_FLOOR_BRACKETS in simulated minutes (afterMs holds minutes × 60,000). */
  brackets: readonly FloorBracket[];
}

export interface JobSpec {
  idx: number;
  recruiter: number;
  title: string;
  job: JobForScore;
}

export interface RecruiterSpec {
  idx: number;
  /** Interviews at once (the event's interview slots). */
  capacity: number;
  interviewMinutes: number;
  jobs: JobSpec[];
}

export interface SeekerSpec {
  idx: number;
  arriveMinute: number;
  /** Null: any event; else the recruiter whose event the seeker joins. */
  recruiter: number | null;
  seeker: SeekerForScore;
}

export interface Day {
  shape: DayShape;
  recruiters: RecruiterSpec[];
  jobs: JobSpec[];
  seekers: SeekerSpec[];
  /** Interviews the day allows: Σ capacity × ⌊day ÷ interview length⌋. */
  slots: number;
}

/** mulberry32: a small seeded PRNG, so a seed gives the same day on every machine. */
export function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A uniform number in [0, 1) from the seed and some integers (the same pair always draws the same). */
export function hashUnit(seed: number, ...xs: number[]): number {
  let h = (seed ^ 0x9e3779b9) >>> 0;
  for (const x of xs) {
    h = Math.imul(h ^ (x >>> 0), 0x85ebca6b) >>> 0;
    h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35) >>> 0;
    h ^= h >>> 16;
  }
  return rng(h)();
}

const CITIES = ['Berlin', 'London', 'Paris', 'Amsterdam', 'Lisbon', 'Madrid', 'Warsaw', 'Vienna'];
const SKILLS = SHIPPED_SKILL_VOCABULARY.skills;
/** Zipf over the vocabulary in its order (the common languages first): a few very common skills, a long tail. */
const ZIPF_S = 1.05;
const zipfCdf = (() => {
  const w = SKILLS.map((_, r) => 1 / (r + 1) ** ZIPF_S);
  const total = w.reduce((a, b) => a + b, 0);
  let acc = 0;
  return w.map((x) => (acc += x / total));
})();

function zipfSkill(r: () => number): number {
  const u = r();
  let lo = 0;
  let hi = zipfCdf.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (zipfCdf[mid] < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function distinctSkills(r: () => number, n: number, exclude = new Set<number>()): number[] {
  const out = new Set<number>();
  for (let guard = 0; out.size < n && guard < 100 * n; guard++) {
    const s = zipfSkill(r);
    if (!exclude.has(s)) out.add(s);
  }
  return [...out];
}

/** A skill as a person types it: mostly its label, often an alias, sometimes lower-cased. */
function typed(r: () => number, i: number): string {
  const s = SKILLS[i];
  const text = s.aliases.length && r() < 0.35 ? s.aliases[Math.floor(r() * s.aliases.length)] : s.label;
  return r() < 0.25 ? text.toLowerCase() : text;
}

const pick = <T>(r: () => number, xs: readonly T[]): T => xs[Math.floor(r() * xs.length)];

/** Arrival rate over the day: a base rate plus a morning peak (about an hour after opening). */
export function arrivalIntensity(minute: number, dayMinutes: number): number {
  const peakAt = Math.min(75, dayMinutes / 4);
  return 1 + 2.5 * Math.exp(-(((minute - peakAt) / (dayMinutes / 8)) ** 2));
}

/**
 * The population. Seekers arrive as a Poisson process with the morning-peak intensity: given
 * their number, arrival times are independent draws from the normalised intensity (rejection
 * sampling), sorted. Arrivals stop an interview length before closing.
 */
export function generateDay(shape: DayShape): Day {
  const r = rng(shape.seed);
  const recruiters: RecruiterSpec[] = [];
  const jobs: JobSpec[] = [];
  for (let i = 0; i < shape.recruiters; i++) {
    const capacity = 1 + Math.floor(r() * 3);
    const interviewMinutes = pick(r, [20, 30, 30, 45]);
    const rec: RecruiterSpec = { idx: i, capacity, interviewMinutes, jobs: [] };
    const nJobs = 1 + Math.floor(r() * 3);
    for (let j = 0; j < nJobs; j++) {
      const essential = distinctSkills(r, 1 + Math.floor(r() * 3));
      const bonus = distinctSkills(r, Math.floor(r() * 3), new Set(essential));
      const salaryMin = r() < 0.8 ? 40_000 + Math.floor(r() * 60) * 1000 : null;
      const spec: JobSpec = {
        idx: jobs.length,
        recruiter: i,
        title: `${SKILLS[essential[0]].label} engineer ${j + 1}`,
        job: {
          essentialSkills: essential.map((s) => typed(r, s)),
          bonusSkills: bonus.map((s) => typed(r, s)),
          experienceMin: Math.floor(r() * 7),
          salaryMin,
          salaryMax: salaryMin === null ? null : salaryMin + 10_000 + Math.floor(r() * 30) * 1000,
          location: pick(r, CITIES),
          remotePreference: pick(r, ['remote', 'remote', 'hybrid', 'onsite']),
        },
      };
      rec.jobs.push(spec);
      jobs.push(spec);
    }
    recruiters.push(rec);
  }
  const slots = recruiters.reduce((n, x) => n + x.capacity * Math.floor(shape.dayMinutes / x.interviewMinutes), 0);
  const nSeekers = Math.max(1, Math.round(shape.demand * slots));
  const lastArrival = Math.max(1, shape.dayMinutes - 30);
  const peak = Math.max(...Array.from({ length: lastArrival }, (_, m) => arrivalIntensity(m, shape.dayMinutes)));
  const arrivals: number[] = [];
  while (arrivals.length < nSeekers) {
    const t = r() * lastArrival;
    if (r() * peak <= arrivalIntensity(t, shape.dayMinutes)) arrivals.push(t);
  }
  arrivals.sort((a, b) => a - b);
  const seekers: SeekerSpec[] = arrivals.map((arriveMinute, idx) => {
    const skills = distinctSkills(r, 3 + Math.floor(r() * 6));
    return {
      idx,
      arriveMinute,
      recruiter: r() < 0.2 ? Math.floor(r() * shape.recruiters) : null,
      seeker: {
        skills: skills.map((s) => typed(r, s)),
        experienceYears: Math.floor(r() * 12),
        location: pick(r, CITIES),
        remotePreference: pick(r, ['fully_remote', 'hybrid', 'hybrid', 'onsite']),
        salaryExpectationMin: r() < 0.6 ? 40_000 + Math.floor(r() * 50) * 1000 : null,
      },
    };
  });
  return { shape, recruiters, jobs, seekers, slots };
}

export const scoreOf = (day: Day, s: number, j: number): MatchScore =>
  computeMatchScore(day.seekers[s].seeker, day.jobs[j].job);

/** What the two people do with an offer of job j to seeker s: drawn from the seed and the pair, never from the planner. */
export interface Decision {
  seeker: 'accept' | 'decline' | 'ignore';
  recruiter: 'accept' | 'decline';
  /** Only when both accept: who does not come to the room. */
  noShow: 'seeker' | 'recruiter' | null;
  declineCode: 'skills' | 'experience' | 'salary' | 'location' | 'not_interested';
  /** Reaction times in simulated minutes. */
  seekerAfter: number;
  recruiterAfter: number;
}

/** Acceptance rises with the score: about a third at 40, nineteen in twenty at 100. */
export const acceptProbability = (score: number, who: 'seeker' | 'recruiter') => {
  const x = Math.min(1, Math.max(0, (score - 40) / 60));
  return who === 'seeker' ? 0.35 + 0.6 * x : 0.5 + 0.45 * x;
};

export function decide(day: Day, s: number, j: number): Decision {
  const seed = day.shape.seed;
  const score = scoreOf(day, s, j);
  const b = score.breakdown;
  const u = (k: number) => hashUnit(seed, s, j, k);
  const seeker = u(1) < 0.04 ? 'ignore' : u(2) < acceptProbability(score.score, 'seeker') ? 'accept' : 'decline';
  const recruiter = u(3) < acceptProbability(score.score, 'recruiter') ? 'accept' : 'decline';
  const weakest = (
    [
      ['skills', b.essential_skills.score],
      ['experience', b.experience.score],
      ['salary', b.salary.score],
      ['location', b.location.score],
    ] as const
  )
    .filter(([, v]) => v !== null && v < 1)
    .sort((x, y) => (x[1] as number) - (y[1] as number))[0];
  const ns = u(4);
  return {
    seeker,
    recruiter,
    noShow: ns < 0.04 ? 'seeker' : ns < 0.05 ? 'recruiter' : null,
    declineCode: weakest ? weakest[0] : 'not_interested',
    seekerAfter: 0.5 + 4 * u(5),
    recruiterAfter: 0.5 + 4 * u(6),
  };
}

/** The pair turns into an interview when it is offered: both accept and both come. */
export const wouldInterview = (d: Decision) => d.seeker === 'accept' && d.recruiter === 'accept' && d.noShow === null;

/** When seeker s leaves unmatched: the entry's TTL, or the end of the day. */
export const presenceEnd = (day: Day, s: number) =>
  Math.min(day.shape.dayMinutes, day.seekers[s].arriveMinute + day.shape.ttlMinutes);

/**
 * Whether job j passes the event's floor for seeker s at `minute` (the floor relaxes with the
 * seeker's wait, in brackets), with the same floorFor/passesFloor as the matchmaker.
 */
export function passesAt(day: Day, s: number, j: number, minute: number, score = scoreOf(day, s, j)): boolean {
  const waitedMs = (minute - day.seekers[s].arriveMinute) * 60_000;
  const floor = floorFor(day.shape.floor, waitedMs, day.shape.brackets);
  const job = day.jobs[j].job;
  return passesFloor(
    floor,
    score.score,
    score.breakdown.essential_skills.matched.length,
    job.essentialSkills.length,
    hardRemoteMismatch(job.remotePreference, day.seekers[s].seeker.remotePreference),
  );
}

/** Jobs seeker s may be offered (its scope) that pass the floor at some moment of its stay: "an eligible job". */
export function eligibleJobs(day: Day, s: number): number[] {
  const sp = day.seekers[s];
  const end = presenceEnd(day, s) - 1e-6;
  return day.jobs
    .filter((j) => sp.recruiter === null || j.recruiter === sp.recruiter)
    .filter((j) => passesAt(day, s, j.idx, end))
    .map((j) => j.idx);
}

/**
 * The eligible jobs seeker s could still be offered at the end of its entry: its eligible jobs
 * less those already offered to it (`offered`: the jobs of its matches). An offered pair is never
 * offered again — declined by either side (blocked for the seeker), expired or tried in the
 * entry — so a seeker whose eligible pairs were all offered and declined did not wait out its
 * entry with an eligible job open.
 */
export function openEligibleJobs(day: Day, s: number, offered: ReadonlySet<number>): number[] {
  return eligibleJobs(day, s).filter((j) => !offered.has(j));
}

/** Windows of a recruiter's day: every interview length that starts before closing. */
const windowsOf = (day: Day, rec: RecruiterSpec) => Math.ceil(day.shape.dayMinutes / rec.interviewMinutes);

export interface OptimumEdge {
  seeker: number;
  recruiter: number;
  job: number;
  window: number;
  score: number;
}

export interface Optimum {
  /** Max interviews. */
  interviews: number;
  /** Max total score (and the interviews and per-recruiter counts of that solution). */
  totalScore: number;
  scoreSolution: OptimumEdge[];
  perRecruiter: number[];
}

/**
 * The offline optimum. Each recruiter's day is cut into windows of its interview length (every one
 * that starts before closing); a window takes at most `capacity` interviews (an interview slot starts at most one
 * interview per window). Seeker s may take an interview in recruiter r's window w when it is in s's
 * scope, the two overlap (s arrived before the window ends and its entry is still there when it
 * starts), the best such job of r passes the floor by then and the pair would interview (both
 * accept, both come). Each seeker at most one interview. Any real day is a solution of this model
 * (an interview started in a window is counted in it), so its optimum bounds every planner from
 * above. Solved twice: max interviews, max total score. `interviews` says which pairs would
 * interview when offered (default: the seeded decisions).
 */
export async function offlineOptimum(
  day: Day,
  interviews: (s: number, j: number) => boolean = (s, j) => wouldInterview(decide(day, s, j)),
): Promise<Optimum> {
  const edges: OptimumEdge[] = [];
  for (const sp of day.seekers) {
    const s = sp.idx;
    const end = presenceEnd(day, s);
    for (const rec of day.recruiters) {
      if (sp.recruiter !== null && sp.recruiter !== rec.idx) continue;
      const scored = rec.jobs
        .map((j) => ({ j: j.idx, score: scoreOf(day, s, j.idx) }))
        .filter((x) => interviews(s, x.j));
      if (!scored.length) continue;
      const windows = windowsOf(day, rec);
      for (let w = 0; w < windows; w++) {
        const start = w * rec.interviewMinutes;
        const stop = start + rec.interviewMinutes;
        if (sp.arriveMinute >= stop || end <= start) continue;
        // The latest moment both are there in this window: the most relaxed floor the pair meets in it.
        const at = Math.min(stop, end) - 1e-6;
        let best: { j: number; score: number } | undefined;
        for (const x of scored)
          if (passesAt(day, s, x.j, at, x.score) && (!best || x.score.score > best.score))
            best = { j: x.j, score: x.score.score };
        if (best) edges.push({ seeker: s, recruiter: rec.idx, job: best.j, window: w, score: best.score });
      }
    }
  }
  const rightCapacity = new Map<string, number>();
  for (const rec of day.recruiters) {
    const windows = windowsOf(day, rec);
    for (let w = 0; w < windows; w++) rightCapacity.set(`${rec.idx}:${w}`, rec.capacity);
  }
  const asB = (weight: (e: OptimumEdge) => number): BEdge[] =>
    edges.map((e) => ({ left: String(e.seeker), right: `${e.recruiter}:${e.window}`, weight: weight(e) }));
  // A score of 0 still counts as an interview in the count model; the score model needs weight > 0.
  const count = await solveBMatching({ edges: asB(() => 1), rightCapacity });
  const byScore = await solveBMatching({ edges: asB((e) => Math.max(e.score, 1e-3)), rightCapacity });
  const scoreSolution = byScore.chosen.map((i) => edges[i]);
  const perRecruiter = day.recruiters.map(() => 0);
  for (const e of scoreSolution) perRecruiter[e.recruiter]++;
  return {
    interviews: count.chosen.length,
    totalScore: scoreSolution.reduce((a, e) => a + e.score, 0),
    scoreSolution,
    perRecruiter,
  };
}

/**
 * The offline optimum's expectation over the humans' answers: the same arrivals, the decisions
 * drawn again `draws` times (decision seeds seed × 1000 + 1…), the mean of the optima. The
 * online reference is an expectation too, so the two compare on the same footing; the day the
 * bench runs is one draw (decision seed = the day's seed) and its optimum can be above or below.
 */
export async function expectedOptimum(day: Day, draws: number): Promise<{ interviews: number; totalScore: number }> {
  let interviews = 0;
  let totalScore = 0;
  for (let k = 1; k <= draws; k++) {
    const redrawn: Day = { ...day, shape: { ...day.shape, seed: day.shape.seed * 1000 + k } };
    const opt = await offlineOptimum(day, (s, j) => wouldInterview(decide(redrawn, s, j)));
    interviews += opt.interviews;
    totalScore += opt.totalScore;
  }
  return { interviews: interviews / draws, totalScore: totalScore / draws };
}

/** What an offer is worth before its answer is known, from the pair's score alone. */
export interface OfferOutcome {
  /** Probability the offer turns into an interview (both accept, both come). */
  interview: number;
  /**
   * Expected slot minutes the offer holds before it is released or its interview starts: the
   * answers (a decline, both accepts and the walk to the room), an ignored offer's acceptance
   * window, a no-show's grace. The interview's own length is on top, with `interview`'s probability.
   */
  hold: number;
  /** `hold` by how the offer ends: both accepted (their answers and the walk to the room), declined, ignored until the window, a no-show's grace. */
  holdBy?: { accepted: number; declined: number; expired: number; noShow: number };
}

/** The day's humans (decide): reaction times uniform in [0.5, 4.5] minutes, the room half a minute after both accept. */
const REACT = { lo: 0.5, hi: 4.5 };
const WALK_MIN = 0.5;

/**
 * The expectation of `decide` for an offer with this score, with the day's acceptance window
 * and no-show grace: what a planner that must offer before learning the answer can count on.
 * Seeker: ignores 4 %, else accepts with acceptProbability; recruiter accepts with its own; of
 * the pairs who both accept, 4 % + 1 % do not come. An offer ends at the first decline, at the
 * later of two accepts, or at the acceptance window when the seeker ignores it and the recruiter accepts.
 */
export function offerOutcome(score: number, acceptWindowMin: number, noShowGraceMin: number): OfferOutcome {
  const mean = (REACT.lo + REACT.hi) / 2;
  const later = REACT.lo + ((REACT.hi - REACT.lo) * 2) / 3; // E[max] of two uniform reaction times
  const sooner = REACT.lo + (REACT.hi - REACT.lo) / 3; // E[min]
  const ignore = 0.04;
  const sAccept = (1 - ignore) * acceptProbability(score, 'seeker');
  const sDecline = 1 - ignore - sAccept;
  const rAccept = acceptProbability(score, 'recruiter');
  const rDecline = 1 - rAccept;
  const noShow = 0.05;
  const holdBy = {
    accepted: sAccept * rAccept * (later + WALK_MIN),
    declined: (sDecline * rAccept + sAccept * rDecline + ignore * rDecline) * mean + sDecline * rDecline * sooner,
    expired: ignore * rAccept * acceptWindowMin,
    noShow: sAccept * rAccept * noShow * noShowGraceMin,
  };
  return {
    interview: sAccept * rAccept * (1 - noShow),
    hold: holdBy.accepted + holdBy.declined + holdBy.expired + holdBy.noShow,
    holdBy,
  };
}

export interface OnlineReference {
  /** Expected interviews of the best such planner (max-interviews LP). */
  interviews: number;
  /** Expected total score (max-score LP), and the expected interviews of that plan. */
  totalScore: number;
  scorePlanInterviews: number;
  /** Expected offers of the max-score plan, and the share of slot time they hold undecided. */
  offers: number;
  holdShare: number;
  /**
   * Where the slot time goes in the max-interviews plan, in expected slot minutes: interviewing
   * and the holds by how the offer ends; `slotDay` is Σ capacity × day, `budget` Σ capacity ×
   * (day + one interview length), what the LP lets holds and interviews use.
   */
  slotUse: {
    interviewing: number;
    accepted: number;
    declined: number;
    expired: number;
    noShow: number;
    slotDay: number;
    budget: number;
    /** Per recruiter: expected interviews, and interview plus hold minutes. */
    perRecruiter: Array<{ interviews: number; used: number }>;
  };
}

/**
 * The best a planner could do that must offer before it learns the answer (the online reference):
 * the offline optimum's model with the answers unknown. Every arrival is still known in hindsight;
 * an offer of job j to seeker s in recruiter r's window w (same windows, presence and floor as
 * the optimum, every job of r, not only pairs that would interview) turns into an interview with
 * the pair's probability and holds the slot for its expected `hold` (offerOutcome), whether
 * accepted or declined. Variables: x = the probability the pair is offered in that window. Rows:
 * each pair offered at most once; for each set of a seeker's jobs, the expected interviews from
 * them at most the chance that one of those pairs would accept (so at most one interview); each
 * window at most `capacity` interviews in expectation; each recruiter's slot time (interviews'
 * length plus holds) at most capacity × (day + one interview length): on a slot every hold comes
 * before the next interview's start, and only the last interview (or the last offer's answer)
 * runs past closing.
 *
 * Any planner that decides without the answers of the offers it has not made yet (the answers
 * are independent per pair) meets these rows in expectation, so the LP bounds its expected day
 * from above, within the optimum's window model. Solved by HiGHS as two LPs (max interviews, max
 * total score). `outcome` defaults to offerOutcome with the day's 15-minute acceptance window and
 * 10-minute no-show grace.
 */
export async function onlineReference(
  day: Day,
  outcome: (s: number, j: number) => OfferOutcome = (s, j) => offerOutcome(scoreOf(day, s, j).score, 15, 10),
  /** Share of one interview length each slot may run past closing (1: the bound; less: a sensitivity, not a bound). */
  pastClosing = 1,
): Promise<OnlineReference> {
  const edges = referenceEdges(day, outcome);
  // Per slot: every hold before the last interview's start, and every interview but the last,
  // fit in the day (the last one may run past closing, as an offer made just before closing may
  // be answered after it): Σ holds + length × interviews ≤ day + length.
  const budget = (r: number) => {
    const rec = day.recruiters[r];
    return rec.capacity * (day.shape.dayMinutes + pastClosing * rec.interviewMinutes);
  };
  const slotUse = emptySlotUse(day, pastClosing);
  if (!edges.length) return { interviews: 0, totalScore: 0, scorePlanInterviews: 0, offers: 0, holdShare: 0, slotUse };
  const rows = referenceRows(day, edges, budget);
  const h = await solver();
  const count = solveReference(h, edges, rows, () => 1);
  const byScore = solveReference(h, edges, rows, (e) => Math.max(e.score, 1e-3));
  const offers = byScore.x.reduce((a, v) => a + v, 0);
  const held = byScore.x.reduce((a, v, i) => a + v * edges[i].o.hold, 0);
  const total = day.recruiters.reduce((a, rec) => a + budget(rec.idx), 0);
  addSlotUse(day, edges, count.x, slotUse);
  return {
    slotUse,
    interviews: count.value,
    totalScore: byScore.x.reduce((a, v, i) => a + v * edges[i].o.interview * edges[i].score, 0),
    scorePlanInterviews: byScore.x.reduce((a, v, i) => a + v * edges[i].o.interview, 0),
    offers,
    holdShare: held / total,
  };
}

/** An offer the online reference may make: job j to seeker s in recruiter r's window w. */
interface Edge {
  s: number;
  j: number;
  r: number;
  w: number;
  score: number;
  o: OfferOutcome;
}

/** Every offer the reference may make: same windows, presence and floor as the optimum, every job of the recruiter. */
function referenceEdges(day: Day, outcome: (s: number, j: number) => OfferOutcome): Edge[] {
  const edges: Edge[] = [];
  for (const sp of day.seekers) {
    const s = sp.idx;
    const end = presenceEnd(day, s);
    for (const rec of day.recruiters) {
      if (sp.recruiter !== null && sp.recruiter !== rec.idx) continue;
      for (let w = 0; w < windowsOf(day, rec); w++) {
        const start = w * rec.interviewMinutes;
        const stop = start + rec.interviewMinutes;
        if (sp.arriveMinute >= stop || end <= start) continue;
        const at = Math.min(stop, end) - 1e-6;
        for (const job of rec.jobs) {
          const score = scoreOf(day, s, job.idx);
          if (!passesAt(day, s, job.idx, at, score)) continue;
          const o = outcome(s, job.idx);
          if (o.interview <= 0) continue;
          edges.push({ s, j: job.idx, r: rec.idx, w, score: score.score, o });
        }
      }
    }
  }
  return edges;
}

/** No slot time used yet; `slotDay` Σ capacity × day, `budget` what the LP lets holds and interviews use. */
function emptySlotUse(day: Day, pastClosing: number): OnlineReference['slotUse'] {
  return {
    interviewing: 0,
    accepted: 0,
    declined: 0,
    expired: 0,
    noShow: 0,
    slotDay: day.recruiters.reduce((a, rec) => a + rec.capacity * day.shape.dayMinutes, 0),
    budget: day.recruiters.reduce(
      (a, rec) => a + rec.capacity * (day.shape.dayMinutes + pastClosing * rec.interviewMinutes),
      0,
    ),
    perRecruiter: day.recruiters.map(() => ({ interviews: 0, used: 0 })),
  };
}

/** The LP's rows (CPLEX LP format): pairs at most once, a seeker's sets of jobs, each window, each recruiter's slot time. */
function referenceRows(day: Day, edges: Edge[], budget: (r: number) => number): string[] {
  const group = (key: (e: Edge) => string) => {
    const m = new Map<string, number[]>();
    for (let i = 0; i < edges.length; i++) m.set(key(edges[i]), [...(m.get(key(edges[i])) ?? []), i]);
    return [...m.values()];
  };
  const rows: string[] = [];
  const row = (name: string, terms: Array<[number, number]>, rhs: number) => {
    rows.push(` ${name}:`);
    for (const [c, i] of terms) rows.push(`  + ${c.toFixed(9)} x${i}`);
    rows.push(`  <= ${rhs}`);
  };
  group((e) => `${e.s}:${e.j}`).forEach((ix, k) =>
    row(
      `p${k}`,
      ix.map((i) => [1, i]),
      1,
    ),
  );
  seekerSetRows(
    edges,
    group((e) => String(e.s)),
    row,
  );
  group((e) => `${e.r}:${e.w}`).forEach((ix, k) =>
    row(
      `w${k}`,
      ix.map((i) => [edges[i].o.interview, i]),
      day.recruiters[edges[ix[0]].r].capacity,
    ),
  );
  group((e) => String(e.r)).forEach((ix, k) =>
    row(
      `t${k}`,
      ix.map((i) => [edges[i].o.interview * day.recruiters[edges[i].r].interviewMinutes + edges[i].o.hold, i]),
      budget(edges[ix[0]].r),
    ),
  );
  return rows;
}

/**
 * A seeker's interview comes from one pair that would accept: for every set S of its jobs,
 * P(interview with a job of S) ≤ P(some pair of S would accept) = 1 − Π(1 − q). (S = all its
 * jobs is "at most one interview"; singletons are the pair rows.)
 */
function seekerSetRows(
  edges: Edge[],
  bySeeker: number[][],
  row: (name: string, terms: Array<[number, number]>, rhs: number) => void,
): void {
  let k = 0;
  for (const ix of bySeeker) {
    const jobs = [...new Set(ix.map((i) => edges[i].j))];
    const q = new Map(ix.map((i) => [edges[i].j, edges[i].o.interview]));
    const sets =
      jobs.length <= 10
        ? Array.from({ length: 2 ** jobs.length - 1 }, (_, m) => jobs.filter((_, b) => (m + 1) & (1 << b)))
        : [jobs];
    for (const set of sets) {
      if (set.length < 2) continue;
      const inSet = new Set(set);
      const rhs = 1 - set.reduce((a, j) => a * (1 - q.get(j)!), 1);
      row(
        `s${k++}`,
        ix.filter((i) => inSet.has(edges[i].j)).map((i) => [edges[i].o.interview, i]),
        Number(rhs.toFixed(9)),
      );
    }
  }
}

/** The LP maximising the expected interviews weighted by `weight`; its value and each offer's probability. */
function solveReference(
  h: Awaited<ReturnType<typeof solver>>,
  edges: Edge[],
  rows: string[],
  weight: (e: Edge) => number,
): { value: number; x: number[] } {
  const model = [
    'Maximize',
    ' obj:',
    ...edges.map((e, i) => `  + ${(e.o.interview * weight(e)).toFixed(9)} x${i}`),
    'Subject To',
    ...rows,
    'Bounds',
    ...edges.map((_, i) => ` 0 <= x${i} <= 1`),
    'End',
  ].join('\n');
  const solution = h.solve(model, { output_flag: false });
  if (solution.Status !== 'Optimal') throw new Error(`online reference: HiGHS answered ${solution.Status}`);
  const x = edges.map((_, i) => Math.max(0, solution.Columns[`x${i}`]?.Primal ?? 0));
  return { value: solution.ObjectiveValue, x };
}

/** Where the slot time of the plan `x` goes: interviewing, and the holds by how the offer ends. */
function addSlotUse(day: Day, edges: Edge[], x: number[], slotUse: OnlineReference['slotUse']): void {
  x.forEach((v, i) => {
    const e = edges[i];
    const by = e.o.holdBy ?? { accepted: 0, declined: e.o.hold, expired: 0, noShow: 0 };
    const length = day.recruiters[e.r].interviewMinutes;
    slotUse.perRecruiter[e.r].interviews += v * e.o.interview;
    slotUse.perRecruiter[e.r].used += v * (e.o.interview * length + e.o.hold);
    slotUse.interviewing += v * e.o.interview * length;
    slotUse.accepted += v * by.accepted;
    slotUse.declined += v * by.declined;
    slotUse.expired += v * by.expired;
    slotUse.noShow += v * by.noShow;
  });
}

/** One match of a run, in simulated minutes from the opening (null: it did not happen). */
export interface MatchTimes {
  recruiter: number;
  created: number;
  accepted: number | null;
  declined: number | null;
  expired: number | null;
  interviewStarted: number | null;
  completed: number | null;
  noShow: number | null;
}

/**
 * Where each recruiter's slot time went, in simulated minutes of the day (capacity × day length):
 * interviewing (both in the room until it ended), deciding (offered, until accepted, declined or
 * expired), to the room (accepted, until the interview started or a no-show was called) and free
 * (none of these: no offer held the slot, or only for the moments between two).
 */
export function slotTime(
  day: Day,
  matches: readonly MatchTimes[],
): Array<{ total: number; interviewing: number; deciding: number; toRoom: number; free: number }> {
  const end = day.shape.dayMinutes;
  const span = (from: number | null, to: number | null) =>
    from === null ? 0 : Math.max(0, Math.min(to ?? end, end) - Math.max(0, from));
  return day.recruiters.map((rec) => {
    const total = rec.capacity * end;
    let interviewing = 0;
    let deciding = 0;
    let toRoom = 0;
    for (const x of matches) {
      if (x.recruiter !== rec.idx) continue;
      deciding += span(x.created, x.accepted ?? x.declined ?? x.expired);
      toRoom += span(x.accepted, x.interviewStarted ?? x.noShow ?? x.completed);
      interviewing += span(x.interviewStarted, x.completed);
    }
    return { total, interviewing, deciding, toRoom, free: Math.max(0, total - interviewing - deciding - toRoom) };
  });
}

/** A match of a run with the offer behind it, for the slot accounting (simulated minutes). */
export interface SlotMatch extends MatchTimes {
  seeker: number;
  job: number;
  /** When the matchmaker's offer took the slot, and when it gave it back (null: still held at closing). */
  offered: number;
  released: number | null;
}

/** A seeker's queue entry: in line from `joined` until `ended` (accepted a match, expired, left; null: still there). */
export interface EntryTimes {
  seeker: number;
  joined: number;
  ended: number | null;
}

/**
 * What a recruiter's slot is doing at a moment. Held by an offer: the offer being started (the
 * match workflow not yet running), its answers by how they end (both accept: until the first yes,
 * then waiting for the other; declined; ignored until the window expired), the walk to the room,
 * a no-show's grace, the interview, and the ended match whose offer has not released the slot
 * yet. Idle, by the best seeker in line for it: one who could be offered it now (an unoffered job
 * of this recruiter in the seeker's scope passes the floor, no other offer holds the seeker),
 * split by how long the slot has been idle with such a seeker (within `latency`: the matchmaker's
 * round and the offer's start); one held by another offer; one whose pair here passes only later
 * (the floor relaxes with the wait); one whose pairs here that pass were all offered already;
 * nobody. `afterLastStart`: idle so close to closing that no offer could turn into an interview
 * that starts before it (the humans' fastest answer and walk, 1 minute).
 */
export const SLOT_BUCKETS = [
  'interviewing',
  'offerStarting',
  'acceptedFirstYes',
  'acceptedWaitRecruiter',
  'acceptedWaitSeeker',
  'declined',
  'expired',
  'toRoom',
  'noShowGrace',
  'endedNotReleased',
  'idleEligibleLatency',
  'idleEligibleLonger',
  'idleSeekerHeld',
  'idleFloorLater',
  'idlePairsTried',
  'idleNobody',
  'afterLastStart',
] as const;
export type SlotBucket = (typeof SLOT_BUCKETS)[number];
export type SlotAccount = Record<SlotBucket, number>;

const emptyAccount = (): SlotAccount => Object.fromEntries(SLOT_BUCKETS.map((b) => [b, 0])) as SlotAccount;

/**
 * The slot accounting of a run: every recruiter's capacity × day length, sampled every `step`
 * simulated minutes, put in one bucket per slot (SLOT_BUCKETS). `latency`: an idle slot with a
 * seeker who could take it counts as the round's latency for this long, then as a loss the
 * planner or the matchmaker controls. `lastStart`: the last minutes in which an offer can no longer
 * become an interview started before closing. Pure; the bench calls it on its record.
 */
export function slotAccounting(
  day: Day,
  matches: readonly SlotMatch[],
  entries: readonly EntryTimes[],
  opts: { step?: number; latency?: number; lastStart?: number } = {},
): SlotAccount[] {
  const step = opts.step ?? 0.05;
  const latency = opts.latency ?? 1;
  const lastStart = opts.lastStart ?? 1;
  const end = day.shape.dayMinutes;
  // The moment each pair passes the floor, from the seeker's own join (the floor relaxes in brackets).
  const joinedAt = new Map(entries.map((e) => [e.seeker, e]));
  const passFrom = new Map<string, number>();
  const passes = (s: number, j: number): number => {
    const key = `${s}:${j}`;
    let at = passFrom.get(key);
    if (at === undefined) {
      const arrive = day.seekers[s].arriveMinute;
      const score = scoreOf(day, s, j);
      const waits = [0, ...day.shape.brackets.map((b) => b.afterMs / 60_000)].sort((a, b) => a - b);
      const first = waits.find((w) => passesAt(day, s, j, arrive + w + 1e-6, score));
      at = first === undefined ? Infinity : (joinedAt.get(s)?.joined ?? arrive) + first;
      passFrom.set(key, at);
    }
    return at;
  };
  const decided = (x: SlotMatch) => x.accepted ?? x.declined ?? x.expired;
  const over = (x: SlotMatch) => x.completed ?? x.noShow ?? x.declined ?? x.expired;
  /** What match x does with its slot at t (null: it does not hold it). */
  const phase = (x: SlotMatch, t: number): SlotBucket | null => {
    if (t < x.offered || t >= (x.released ?? Infinity)) return null;
    if (t < x.created) return 'offerStarting';
    const ended = over(x);
    if (ended !== null && t >= ended) return 'endedNotReleased';
    if (x.accepted === null || t < x.accepted) {
      if (x.declined !== null) return 'declined';
      if (x.expired !== null) return 'expired';
      const d = decide(day, x.seeker, x.job);
      if (x.accepted === null) return d.seeker === 'ignore' ? 'expired' : 'declined';
      const firstYes = x.created + Math.min(d.seekerAfter, d.recruiterAfter);
      if (t < firstYes) return 'acceptedFirstYes';
      return d.seekerAfter <= d.recruiterAfter ? 'acceptedWaitRecruiter' : 'acceptedWaitSeeker';
    }
    if (x.interviewStarted !== null && t >= x.interviewStarted) return 'interviewing';
    return x.noShow !== null ? 'noShowGrace' : 'toRoom';
  };
  const bySeeker = new Map<number, SlotMatch[]>();
  for (const x of matches) bySeeker.set(x.seeker, [...(bySeeker.get(x.seeker) ?? []), x]);
  const accounts = day.recruiters.map(() => emptyAccount());
  const lossSince = day.recruiters.map(() => [] as number[]);
  for (let k = 0; (k + 0.5) * step < end; k++) {
    const t = (k + 0.5) * step;
    // Who is in line, and whether an offer holds them.
    const inLine = entries.filter((e) => e.joined <= t && t < (e.ended ?? Infinity));
    for (const rec of day.recruiters) {
      const acc = accounts[rec.idx];
      let held = 0;
      for (const x of matches) {
        if (x.recruiter !== rec.idx) continue;
        const b = phase(x, t);
        if (b === null) continue;
        held++;
        acc[b] += step;
      }
      const idle = Math.max(0, rec.capacity - held);
      let free = 0;
      let busy = 0;
      let later = 0;
      let tried = 0;
      if (idle > 0 && t < end - lastStart) {
        for (const e of inLine) {
          const sp = day.seekers[e.seeker];
          if (sp.recruiter !== null && sp.recruiter !== rec.idx) continue;
          const mine = bySeeker.get(e.seeker) ?? [];
          const isHeld = mine.some((x) => x.offered <= t && t < (decided(x) ?? Infinity));
          let now = false;
          let soon = false;
          let used = false;
          for (const j of rec.jobs) {
            const from = passes(e.seeker, j.idx);
            if (from === Infinity) continue;
            if (mine.some((x) => x.job === j.idx && x.offered <= t)) used = true;
            else if (from <= t) now = true;
            else if (from < (e.ended ?? end)) soon = true;
          }
          if (now && !isHeld) free++;
          else if (now) busy++;
          else if (soon && !isHeld) later++;
          else if (used) tried++;
        }
      }
      const losses = Math.min(idle, free);
      const since = lossSince[rec.idx];
      while (since.length < losses) since.push(t);
      while (since.length > losses) since.pop();
      let left = idle;
      if (t >= end - lastStart) {
        acc.afterLastStart += idle * step;
        continue;
      }
      for (const start of since) acc[t - start < latency ? 'idleEligibleLatency' : 'idleEligibleLonger'] += step;
      left -= losses;
      const take = (n: number, b: SlotBucket) => {
        const k = Math.min(left, n);
        acc[b] += k * step;
        left -= k;
      };
      take(busy, 'idleSeekerHeld');
      take(later, 'idleFloorLater');
      take(tried, 'idlePairsTried');
      acc.idleNobody += left * step;
    }
  }
  return accounts;
}
