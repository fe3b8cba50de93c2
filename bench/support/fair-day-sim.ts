/**
 * The fair day without the stack: the same seeded day (fair-day-model.ts), the same humans
 * (`decide`: answers, reaction times, ignored offers, no-shows), the same queue rules (an entry
 * waits its TTL, a seeker has one open offer, a pair offered once, the floor relaxing in brackets)
 * and the greedy plan of activities/matchmaking/plan.ts (by band of the best score, oldest first,
 * each its best job with a free slot), played as discrete events with no machine in between: a
 * round runs the moment anything changes, plus `roundDelay`, and an ended match gives its slot
 * back after `releaseDelay`. What the real day loses beyond this one is the stack's; what this
 * one loses against the references is the policy's (or the references' looseness).
 */
import { SCORE_BAND } from '#activities/matchmaking/plan';
import { decide, passesAt, scoreOf, type Day, type EntryTimes, type SlotMatch } from './fair-day-model';

export interface SimOptions {
  acceptWindowMin?: number;
  noShowGraceMin?: number;
  /** Minutes from a change to the round that sees it. */
  roundDelay?: number;
  /** Minutes from a match's end to its slot being free again. */
  releaseDelay?: number;
  /** The plan: greedy (by band of the best score, oldest first) or by best score first (no bands). */
  policy?: 'greedy' | 'score';
  /** The answers of another draw (a day whose seed only `decide` reads); default: the day's own. */
  answers?: Day;
}

export interface SimResult {
  interviews: number;
  totalScore: number;
  perRecruiter: number[];
  offers: number;
  /** The day as a record (for slotAccounting). */
  matches: SlotMatch[];
  entries: EntryTimes[];
}

export function simulateDay(day: Day, opts: SimOptions = {}): SimResult {
  const acceptWindow = opts.acceptWindowMin ?? 15;
  const grace = opts.noShowGraceMin ?? 10;
  const roundDelay = opts.roundDelay ?? 0;
  const releaseDelay = opts.releaseDelay ?? 0;
  const end = day.shape.dayMinutes;
  const events: Array<{ t: number; run: () => void }> = [];
  const at = (t: number, run: () => void) => events.push({ t, run });
  const held = day.recruiters.map(() => 0);
  const seekers = day.seekers.map((s) => ({
    inLine: false,
    gone: false,
    offerOpen: false,
    tried: new Set<number>(),
    joined: s.arriveMinute,
    leaveAt: Math.min(end, s.arriveMinute + day.shape.ttlMinutes),
  }));
  const result: SimResult = {
    interviews: 0,
    totalScore: 0,
    perRecruiter: day.recruiters.map(() => 0),
    offers: 0,
    matches: [],
    entries: day.seekers.map((sp) => ({ seeker: sp.idx, joined: sp.arriveMinute, ended: null })),
  };
  const answers = opts.answers ?? day;
  let roundAt = Infinity;
  const wake = (t: number) => {
    if (t + roundDelay < roundAt) {
      roundAt = t + roundDelay;
      at(roundAt, () => round(roundAt));
    }
  };
  const release = (r: number, t: number) =>
    at(t + releaseDelay, () => {
      held[r]--;
      wake(t + releaseDelay);
    });
  const leave = (s: number, t: number) => {
    if (seekers[s].gone) return;
    seekers[s].gone = true;
    result.entries[s].ended = t;
  };
  const freeSeeker = (s: number, t: number) => {
    seekers[s].offerOpen = false;
    if (t >= seekers[s].leaveAt) leave(s, t);
    wake(t);
  };
  const offer = (s: number, j: number, t: number) => {
    const r = day.jobs[j].recruiter;
    held[r]++;
    result.offers++;
    seekers[s].offerOpen = true;
    seekers[s].tried.add(j);
    const d = decide(answers, s, j);
    const m: SlotMatch = {
      seeker: s,
      job: j,
      recruiter: r,
      offered: t,
      created: t,
      accepted: null,
      declined: null,
      expired: null,
      interviewStarted: null,
      completed: null,
      noShow: null,
      released: null,
    };
    result.matches.push(m);
    const releaseAt = (x: number) => {
      m.released = x + releaseDelay;
      release(r, x);
    };
    const steps = [
      { at: t + d.seekerAfter, act: d.seeker },
      { at: t + d.recruiterAfter, act: d.recruiter },
    ].sort((a, b) => a.at - b.at);
    const decline = steps.find((x) => x.act === 'decline');
    if (decline) {
      m.declined = decline.at;
      at(decline.at, () => {
        releaseAt(decline.at);
        freeSeeker(s, decline.at);
      });
      return;
    }
    if (d.seeker === 'ignore') {
      m.expired = t + acceptWindow;
      at(t + acceptWindow, () => {
        releaseAt(t + acceptWindow);
        freeSeeker(s, t + acceptWindow);
      });
      return;
    }
    const accepted = steps[1].at;
    m.accepted = accepted;
    at(accepted, () => {
      leave(s, accepted);
      seekers[s].offerOpen = false;
    });
    if (d.noShow) {
      m.noShow = accepted + grace;
      at(accepted + grace, () => releaseAt(accepted + grace));
      return;
    }
    const start = accepted + 0.5;
    m.interviewStarted = start;
    if (start <= end) {
      result.interviews++;
      result.totalScore += scoreOf(day, s, j).score;
      result.perRecruiter[r]++;
    }
    const done = start + day.recruiters[r].interviewMinutes;
    m.completed = done;
    at(done, () => releaseAt(done));
  };
  const round = (t: number) => {
    roundAt = Infinity;
    if (t >= end) return;
    const free = day.recruiters.map((rec) => rec.capacity - held[rec.idx]);
    if (free.every((n) => n <= 0)) return;
    const ranked: Array<{ s: number; band: number; joined: number; cands: Array<{ j: number; score: number }> }> = [];
    day.seekers.forEach((sp, s) => {
      const st = seekers[s];
      if (!st.inLine || st.gone || st.offerOpen) return;
      // Per recruiter (event) its best job the seeker may still be offered, passing the floor now.
      const cands: Array<{ j: number; score: number }> = [];
      for (const rec of day.recruiters) {
        if (sp.recruiter !== null && sp.recruiter !== rec.idx) continue;
        let best: { j: number; score: number } | undefined;
        for (const job of rec.jobs) {
          if (st.tried.has(job.idx)) continue;
          const score = scoreOf(day, s, job.idx);
          if (!passesAt(day, s, job.idx, t, score)) continue;
          if (!best || score.score > best.score) best = { j: job.idx, score: score.score };
        }
        if (best) cands.push(best);
      }
      if (!cands.length) return;
      cands.sort((a, b) => b.score - a.score);
      ranked.push({ s, band: Math.floor(cands[0].score / SCORE_BAND), joined: st.joined, cands });
    });
    if (opts.policy === 'score') ranked.sort((a, b) => b.cands[0].score - a.cands[0].score || a.joined - b.joined);
    else ranked.sort((a, b) => b.band - a.band || a.joined - b.joined);
    for (const e of ranked) {
      const pick = e.cands.find((c) => free[day.jobs[c.j].recruiter] > 0);
      if (!pick) continue;
      free[day.jobs[pick.j].recruiter]--;
      offer(e.s, pick.j, t);
    }
  };
  day.seekers.forEach((sp, s) => {
    at(sp.arriveMinute, () => {
      seekers[s].inLine = true;
      wake(sp.arriveMinute);
    });
    // The floor relaxes with the wait: a round at each bracket.
    for (const b of day.shape.brackets)
      if (b.afterMs > 0)
        at(sp.arriveMinute + b.afterMs / 60_000 + 1e-6, () => wake(sp.arriveMinute + b.afterMs / 60_000 + 1e-6));
    at(seekers[s].leaveAt, () => {
      if (!seekers[s].offerOpen) leave(s, seekers[s].leaveAt);
    });
  });
  // Events in time order (ties: in the order they were scheduled).
  let seq = 0;
  const queue = events.map((e) => ({ ...e, seq: seq++ }));
  events.length = 0;
  for (;;) {
    for (const e of events) queue.push({ ...e, seq: seq++ });
    events.length = 0;
    if (!queue.length) break;
    let k = 0;
    for (let i = 1; i < queue.length; i++)
      if (queue[i].t < queue[k].t || (queue[i].t === queue[k].t && queue[i].seq < queue[k].seq)) k = i;
    const [next] = queue.splice(k, 1);
    if (next.t > end + 200) break;
    next.run();
  }
  return result;
}
