import type { FloorBracket } from '#lib/config';
import { floorFailure, floorFor, nextBracketAfterMs, type AppliedFloor, type EventFloor } from './match-floor';
import { computeMatchScore, hardRemoteMismatch, skillKey, type JobForScore, type SeekerForScore } from './match-score';

/**
 * Why a waiting queue entry has (not) been offered a match yet, and when it may be: one answer for
 * the seeker's queue status, `npm run ops -- why` and the console (docs/design/matching.md, "Why
 * no match yet"). Pure, over what the matchmaker's round reads (its repository queries): the
 * entry's scope of events with their room counted part by part, their open jobs, the pairs the
 * round excludes (tried in this entry, declined or interviewed for), and the quality floor of the
 * entry's current bracket (`floorFor`, `passesFloor`'s checks in `floorFailure`). The round's
 * candidate search finds the same passing jobs without scoring every one (candidates.ts; its tests
 * compare it with scoring every job), so "an offer is due" here is the round's "this entry has a
 * candidate in an event with room".
 */
export const WAIT_BLOCKERS = [
  /** Its event is not live (paused, ended, or gone), or no open-invite event is live. */
  'event_not_live',
  /** Every open job of the scope is excluded (declined, interviewed for, tried) or never passes the floor. */
  'no_eligible_job',
  /** Jobs remain, none passes the floor of the entry's current bracket yet (a later bracket may). */
  'below_floor',
  /** A passing job's event has every interview slot taken. */
  'no_free_slot',
  /** Recruiters set availability at the passing jobs' events and none of them takes new interviews. */
  'recruiters_unavailable',
  /** The available recruiters of the passing jobs' events are all at their capacity. */
  'recruiters_busy',
  /** Room exists, but fewer slots than seekers ahead of this one in its queue. */
  'ahead_in_line',
  /** An offer is being made to the entry right now. */
  'offer_in_progress',
] as const;
export type WaitBlocker = (typeof WAIT_BLOCKERS)[number];

/** Blockers that waiting alone lifts (a slot or a recruiter frees up, the line moves): the rate of matches says when. */
export const CAPACITY_BLOCKERS: ReadonlySet<WaitBlocker> = new Set([
  'no_free_slot',
  'recruiters_busy',
  'ahead_in_line',
]);

/** One event of the entry's scope, with its room as the round counts it (null: not live, no room counted). */
export interface WaitEvent {
  id: string;
  slug: string;
  status: string;
  floor: EventFloor;
  room: {
    /** What the round plans with: min(slots free, recruiters' free capacity where they set availability). */
    free: number;
    slotsFree: number;
    recruiters: number;
    recruitersAvailable: number;
    recruiterFree: number;
  } | null;
}

export interface WaitJob extends JobForScore {
  id: string;
  liveEventId: string;
  title: string;
}

export interface WaitInput {
  nowMs: number;
  entry: {
    enteredAtMs: number;
    /** Null: "any event" (the live open-invite events). */
    liveEventId: string | null;
    seeker: SeekerForScore;
    /** 1-based place among the waiting entries of its queue (null: unknown). */
    position: number | null;
    /** An offer to it is being made (`match_offers.status = 'offering'`). */
    offering: boolean;
  };
  /** The scope: its event (whatever its status), or the live open-invite events. */
  events: WaitEvent[];
  /** Open jobs of the scope's events. */
  jobs: WaitJob[];
  /** Jobs the round never offers this entry: tried in this entry, or declined / interviewed for by the seeker. */
  excludedJobIds: ReadonlySet<string>;
  brackets: readonly FloorBracket[];
}

export interface WaitExplanation {
  /** What stops an offer now; null: the next matching round should offer one. */
  blocker: WaitBlocker | null;
  /** The coarse outlook of the queue status (`match_outlook.state`). */
  outlook: 'matchable' | 'no_eligible_job' | 'event_paused' | 'unknown';
  /** Open jobs in the scope, of them excluded, can still pass a floor (now or a later bracket), pass now. */
  openJobs: number;
  excludedJobs: number;
  eligibleJobs: number;
  passingJobs: number;
  /** The passing jobs' ids (the estimate's rate counts their matches). */
  passingJobIds: string[];
  /** Of the eligible jobs not passing now, why (the first failed check of the current floor). */
  belowFloor: { score: number; no_essential_skill: number; remote_mismatch: number };
  /** The floor of the entry's current bracket (its own event's; for "any event", the default event floor's). */
  bracket: number;
  brackets: number;
  floor: AppliedFloor | null;
  /** When the floor next relaxes (null: last bracket). */
  nextRelaxAtMs: number | null;
  /** below_floor: when the first job passes (the start of a later bracket); null if none ever will. */
  passesAtMs: number | null;
  /** The best passing job (score), when one passes now. */
  best: { jobId: string; title: string; score: number; eventSlug: string } | null;
  /** One paragraph in words, for people and agents. */
  reason: string;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;
const minutes = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 90 ? `${s} s` : `${Math.round(s / 60)} min`;
};

/** What every explanation carries besides its blocker, outlook and reason. */
type Counted = Omit<WaitExplanation, 'blocker' | 'outlook' | 'reason'>;

/** The counts at zero, the entry's bracket and when its floor next relaxes. */
function countedBase(input: WaitInput, waitedMs: number): Counted {
  const { entry, brackets } = input;
  const nextAfter = nextBracketAfterMs(waitedMs, brackets);
  return {
    openJobs: 0,
    excludedJobs: 0,
    eligibleJobs: 0,
    passingJobs: 0,
    passingJobIds: [] as string[],
    belowFloor: { score: 0, no_essential_skill: 0, remote_mismatch: 0 },
    bracket: floorFor({ minScore: 0, requireEssential: false }, waitedMs, brackets).bracket,
    brackets: brackets.length,
    floor: null as AppliedFloor | null,
    nextRelaxAtMs: nextAfter === null ? null : entry.enteredAtMs + nextAfter,
    passesAtMs: null as number | null,
    best: null as WaitExplanation['best'],
  };
}

/** The entry's own event is not live, or no open-invite event is: the explanation, else null. */
function notLive(input: WaitInput, base: Counted, own: WaitEvent | undefined): WaitExplanation | null {
  const { entry } = input;
  if (entry.liveEventId && (!own || own.status !== 'live')) {
    const paused = own?.status === 'paused';
    return {
      ...base,
      blocker: 'event_not_live',
      outlook: paused ? 'event_paused' : 'unknown',
      reason: !own
        ? 'The event of this queue entry was not found.'
        : paused
          ? `Event ${own.slug} is paused: matching resumes when it goes live again.`
          : `Event ${own.slug} is ${own.status}: it makes no more matches.`,
    };
  }
  if (!input.events.some((e) => e.status === 'live'))
    return {
      ...base,
      blocker: 'event_not_live',
      outlook: 'unknown',
      reason: 'No open-invite event is live right now: waiting continues until one goes live.',
    };
  return null;
}

/** The jobs of the live events sorted against the floor: passing now, later (counted in `base`), or never. */
interface SortedJobs {
  /** Open jobs of the live events. */
  jobs: WaitJob[];
  /** Of them, not excluded. */
  open: WaitJob[];
  passing: Array<{ job: WaitJob; score: number }>;
  /** The first bracket in which a job not passing now passes (null: none ever will). */
  passesAtBracket: number | null;
}

/** Each job against the floor of every bracket from the current one on: passing now, later, or never. */
function sortJobs(input: WaitInput, base: Counted, eventById: Map<string, WaitEvent>, waitedMs: number): SortedJobs {
  const { entry, brackets } = input;
  const jobs = input.jobs.filter((j) => eventById.has(j.liveEventId));
  base.openJobs = jobs.length;
  const have = new Set(entry.seeker.skills.map(skillKey));
  const open = jobs.filter((j) => !input.excludedJobIds.has(j.id));
  base.excludedJobs = jobs.length - open.length;

  const current = base.bracket;
  const passing: Array<{ job: WaitJob; score: number }> = [];
  let passesAtBracket: number | null = null;
  const lastAfterMs = Math.max(waitedMs, brackets[brackets.length - 1].afterMs);
  for (const job of open) {
    const essentialMatched = job.essentialSkills.filter((s) => have.has(skillKey(s))).length;
    const mismatch = hardRemoteMismatch(job.remotePreference, entry.seeker.remotePreference);
    const setting = eventById.get(job.liveEventId)!.floor;
    // Never passes (even the loosest bracket asks for an essential skill, or the modes cannot meet): not scored.
    const last = floorFor(setting, lastAfterMs, brackets);
    if (floorFailure({ ...last, min_score: 0 }, 100, essentialMatched, job.essentialSkills.length, mismatch)) continue;
    const score = computeMatchScore(entry.seeker, job).score;
    let firstPass: number | null = null;
    let failureNow: ReturnType<typeof floorFailure> = null;
    for (let b = current; b < brackets.length; b++) {
      const floor = floorFor(setting, b === current ? waitedMs : brackets[b].afterMs, brackets);
      const failure = floorFailure(floor, score, essentialMatched, job.essentialSkills.length, mismatch);
      if (b === current) failureNow = failure;
      if (failure === null) {
        firstPass = b;
        break;
      }
    }
    if (firstPass === null) continue;
    base.eligibleJobs++;
    if (firstPass === current) passing.push({ job, score });
    else {
      base.belowFloor[failureNow!]++;
      passesAtBracket = passesAtBracket === null ? firstPass : Math.min(passesAtBracket, firstPass);
    }
  }
  base.passingJobs = passing.length;
  base.passingJobIds = passing.map((p) => p.job.id);
  return { jobs, open, passing, passesAtBracket };
}

/** No eligible job: every open job is excluded or never passes the floor. */
function noEligibleJob(base: Counted, { jobs, open }: SortedJobs): WaitExplanation {
  const parts = [];
  if (base.excludedJobs) parts.push(`${base.excludedJobs} declined, interviewed for or already offered to this entry`);
  if (open.length) parts.push(`${open.length} that never pass the quality floor (skills, score or remote mode)`);
  return {
    ...base,
    blocker: 'no_eligible_job',
    outlook: 'no_eligible_job',
    reason: jobs.length
      ? `No open job can be offered: of ${plural(jobs.length, 'open job')}, ${parts.join(' and ')}. ` +
        'Waiting cannot help until a new job opens.'
      : 'No open job in this queue right now. Waiting cannot help until a job opens.',
  };
}

/** Jobs can pass a later bracket's floor, none passes now: why, and when the first will. */
function belowFloor(input: WaitInput, base: Counted, { passesAtBracket }: SortedJobs): WaitExplanation {
  const { entry, brackets, nowMs } = input;
  base.passesAtMs = passesAtBracket === null ? null : entry.enteredAtMs + brackets[passesAtBracket].afterMs;
  const why = Object.entries(base.belowFloor)
    .filter(([, n]) => n > 0)
    .map(([k, n]) =>
      k === 'score'
        ? `${n} score below ${base.floor?.min_score ?? 'the minimum'}`
        : k === 'no_essential_skill'
          ? `${n} share none of the job's essential skills`
          : `${n} are on-site while you want fully remote work`,
    );
  return {
    ...base,
    blocker: 'below_floor',
    outlook: 'matchable',
    reason:
      `No job passes the quality floor yet (${plural(base.eligibleJobs, 'job')} can later: ${why.join(', ')}). ` +
      (base.passesAtMs !== null
        ? `The floor relaxes in ${minutes(base.passesAtMs - nowMs)}; then ${base.eligibleJobs === 1 ? 'it' : 'some'} can be offered.`
        : ''),
  };
}

/** Jobs pass now and no offer is being made: what the room of their events says (the round's own count). */
function roomAnswer(input: WaitInput, base: Counted, jobsText: string, withPassing: WaitEvent[]): WaitExplanation {
  const { entry } = input;
  const free = withPassing.reduce((n, e) => n + Math.max(0, e.room?.free ?? 0), 0);
  if (free > 0) {
    if (entry.position !== null && entry.position > free)
      return {
        ...base,
        blocker: 'ahead_in_line',
        outlook: 'matchable',
        reason:
          `${jobsText}, with ${plural(free, 'free interview slot')}; ${plural(entry.position - 1, 'seeker')} ` +
          'ahead of you may take them first (a better fit can pass an older seeker).',
      };
    return {
      ...base,
      blocker: null,
      outlook: 'matchable',
      reason: `${jobsText} and a recruiter has room: the next matching round should offer you one.`,
    };
  }
  // No room: the slot cap, or the recruiters who set availability.
  const slotsTaken = withPassing.every((e) => (e.room?.slotsFree ?? 0) <= 0);
  const noneAvailable = withPassing.every((e) => (e.room?.recruiters ?? 0) > 0 && e.room!.recruitersAvailable === 0);
  if (!slotsTaken && noneAvailable)
    return {
      ...base,
      blocker: 'recruiters_unavailable',
      outlook: 'matchable',
      reason: `${jobsText}, but no recruiter is taking new interviews at ${withPassing.map((e) => e.slug).join(', ')} now.`,
    };
  if (!slotsTaken)
    return {
      ...base,
      blocker: 'recruiters_busy',
      outlook: 'matchable',
      reason: `${jobsText}; every available recruiter is busy with as many interviews as they take. An offer comes when one frees up.`,
    };
  return {
    ...base,
    blocker: 'no_free_slot',
    outlook: 'matchable',
    reason: `${jobsText}; every interview slot is taken. An offer comes when an interview ends.`,
  };
}

/** The explanation (see the module comment). */
export function explainWait(input: WaitInput): WaitExplanation {
  const { entry, brackets, nowMs } = input;
  const waitedMs = Math.max(0, nowMs - entry.enteredAtMs);
  const base = countedBase(input, waitedMs);
  const own = entry.liveEventId ? input.events.find((e) => e.id === entry.liveEventId) : undefined;
  if (own) base.floor = floorFor(own.floor, waitedMs, brackets);
  const stopped = notLive(input, base, own);
  if (stopped) return stopped;

  const eventById = new Map(input.events.filter((e) => e.status === 'live').map((e) => [e.id, e]));
  const sorted = sortJobs(input, base, eventById, waitedMs);
  if (!base.eligibleJobs) return noEligibleJob(base, sorted);
  const { passing } = sorted;
  if (!passing.length) return belowFloor(input, base, sorted);
  passing.sort((a, b) => b.score - a.score || (a.job.id < b.job.id ? -1 : 1));
  const top = passing[0];
  base.best = {
    jobId: top.job.id,
    title: top.job.title,
    score: top.score,
    eventSlug: eventById.get(top.job.liveEventId)!.slug,
  };
  const jobsText = `${plural(passing.length, 'job')} pass${passing.length === 1 ? 'es' : ''} the quality floor`;
  if (entry.offering)
    return {
      ...base,
      blocker: 'offer_in_progress',
      outlook: 'matchable',
      reason: `${jobsText}; an offer is being made to you right now.`,
    };
  // Room of the events with a passing job, as the round counts it.
  const withPassing = [...new Set(passing.map((p) => p.job.liveEventId))].map((id) => eventById.get(id)!);
  return roomAnswer(input, base, jobsText, withPassing);
}

/** Matches of the relevant jobs in a recent window (the estimate's rate). */
export interface RecentRate {
  count: number;
  firstAtMs: number | null;
  nowMs: number;
}

/** The rate needs at least this many matches in the window… */
export const WAIT_ESTIMATE_MIN_MATCHES = 3;
/** …taken over at least this span, so a burst does not read as an endless rate. */
export const WAIT_ESTIMATE_MIN_SPAN_MS = 60 * 1000;

/** position ÷ the observed rate; null with too little data (never a made-up number). */
export function rateWaitSeconds(position: number, rate: RecentRate): number | null {
  if (rate.count < WAIT_ESTIMATE_MIN_MATCHES || rate.firstAtMs === null) return null;
  const spanSeconds = Math.max(rate.nowMs - rate.firstAtMs, WAIT_ESTIMATE_MIN_SPAN_MS) / 1000;
  return Math.round(position / (rate.count / spanSeconds));
}

export interface WaitEstimate {
  /** A single figure only when the explanation says when (an offer due, or a rate to go by). */
  seconds: number | null;
  /** The honest range (null ends: unknown); both null when nothing can be said. */
  minSeconds: number | null;
  maxSeconds: number | null;
  reason: string;
}

/**
 * The wait estimate that goes with an explanation: due → within two matchmaker intervals; a
 * capacity blocker → position ÷ the recent rate of matches of the passing jobs (halved to doubled
 * as the range; null without data); below the floor → at least until the floor lets a job pass;
 * otherwise nothing (waiting alone does not help, or nobody can say when it will).
 */
export function estimateWait(
  x: WaitExplanation,
  o: { nowMs: number; intervalMs: number; position: number | null; rate: RecentRate | null },
): WaitEstimate {
  const rounds = Math.ceil((2 * o.intervalMs) / 1000);
  if (x.blocker === null || x.blocker === 'offer_in_progress')
    return { seconds: rounds, minSeconds: 0, maxSeconds: rounds, reason: 'an offer is due in the next matching round' };
  if (CAPACITY_BLOCKERS.has(x.blocker)) {
    const s = o.rate && o.position !== null ? rateWaitSeconds(o.position, o.rate) : null;
    if (s === null)
      return {
        seconds: null,
        minSeconds: null,
        maxSeconds: null,
        reason: 'too few recent matches of these jobs to estimate when a slot or recruiter frees up',
      };
    return {
      seconds: s,
      minSeconds: Math.round(s / 2),
      maxSeconds: s * 2,
      reason: `from ${plural(o.rate!.count, 'match', 'matches')} of these jobs in the last 30 minutes`,
    };
  }
  if (x.blocker === 'below_floor' && x.passesAtMs !== null)
    return {
      seconds: null,
      minSeconds: Math.max(0, Math.ceil((x.passesAtMs - o.nowMs) / 1000)),
      maxSeconds: null,
      reason: 'no job passes the quality floor before it relaxes; after that it depends on free slots',
    };
  if (x.blocker === 'recruiters_unavailable')
    return {
      seconds: null,
      minSeconds: null,
      maxSeconds: null,
      reason: 'no recruiter is taking interviews; nobody can say when one will',
    };
  return { seconds: null, minSeconds: null, maxSeconds: null, reason: 'waiting alone does not lead to a match' };
}

/** The poll hint while something can change soon: the 5 s the API has always asked pollers to keep to. */
export const POLL_AFTER_SHORT_SECONDS = 5;
/** The poll hint while nothing the queue does can change the answer (paused, no eligible job): also the cap. */
export const POLL_AFTER_LONG_SECONDS = 60;
/** Capacity blocks and nobody can say when it frees (too few recent matches): between the two. */
export const POLL_AFTER_UNKNOWN_SECONDS = 15;

/**
 * When a poller should read the queue status again (`poll_after_seconds`), from the same wait
 * explanation and estimate the status shows, so the hint never disagrees with the outlook: short while
 * an offer is due or the seeker's match awaits their answer; a tenth of the estimated wait (5–60 s)
 * when capacity is what blocks; long when only something outside the queue can help (the event paused
 * or not live, no eligible job, no recruiter taking interviews); null once the entry has ended.
 */
export function pollAfterSeconds(s: {
  status: 'waiting' | 'matched' | 'left' | 'expired';
  /** The entry's run has finished (a matched entry whose match was accepted or completed). */
  ended: boolean;
  explanation: Pick<WaitExplanation, 'blocker'> | null;
  estimate: Pick<WaitEstimate, 'seconds' | 'minSeconds'> | null;
}): number | null {
  if (s.status === 'left' || s.status === 'expired' || s.ended) return null;
  // Matched, the match awaiting the people's answer; or waiting but not explained (matched between reads).
  if (s.status === 'matched' || !s.explanation) return POLL_AFTER_SHORT_SECONDS;
  const blocker = s.explanation.blocker;
  if (blocker === null || blocker === 'offer_in_progress') return POLL_AFTER_SHORT_SECONDS;
  if (blocker === 'event_not_live' || blocker === 'no_eligible_job' || blocker === 'recruiters_unavailable')
    return POLL_AFTER_LONG_SECONDS;
  // Capacity, or the floor that relaxes later: grow with what the estimate says is the least wait.
  const wait = s.estimate?.seconds ?? s.estimate?.minSeconds ?? null;
  if (wait === null) return POLL_AFTER_UNKNOWN_SECONDS;
  return Math.min(POLL_AFTER_LONG_SECONDS, Math.max(POLL_AFTER_SHORT_SECONDS, Math.round(wait / 10)));
}
