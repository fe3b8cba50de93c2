import {
  decide,
  generateDay,
  offlineOptimum,
  slotAccounting,
  SLOT_BUCKETS,
  type Day,
  type SlotAccount,
  type SlotMatch,
} from '#bench/support/fair-day-model';
import { simulateDay } from '#bench/support/fair-day-sim';

/**
 * The fair-day bench's slot accounting (where every recruiter slot's minute went) on a timeline
 * built by hand, so each bucket's minutes are known: if a phase were read from the wrong timestamp,
 * or an idle slot blamed on the wrong cause, these sums would change.
 */

/** 30 minutes, two recruiters with one slot each and one job each that every seeker passes, 10-minute interviews. */
function handDay(): Day {
  const job = (idx: number) => ({
    idx,
    recruiter: idx,
    title: `job ${idx}`,
    job: {
      essentialSkills: ['TypeScript'],
      bonusSkills: [],
      experienceMin: 0,
      salaryMin: null,
      salaryMax: null,
      location: null,
      remotePreference: 'remote',
    },
  });
  const jobs = [job(0), job(1)];
  const seeker = (idx: number, arriveMinute: number) => ({
    idx,
    arriveMinute,
    recruiter: null,
    seeker: { skills: ['TypeScript'], experienceYears: 5, location: null, remotePreference: 'fully_remote' },
  });
  return {
    shape: {
      seed: 3,
      dayMinutes: 30,
      recruiters: 2,
      demand: 1,
      ttlMinutes: 20,
      floor: { minScore: 0, requireEssential: false },
      brackets: [{ afterMs: 0, relax: 0, essential: false }],
    },
    recruiters: [
      { idx: 0, capacity: 1, interviewMinutes: 10, jobs: [jobs[0]] },
      { idx: 1, capacity: 1, interviewMinutes: 10, jobs: [jobs[1]] },
    ],
    jobs,
    seekers: [seeker(0, 0), seeker(1, 5)],
    slots: 6,
  };
}

const none = {
  accepted: null,
  declined: null,
  expired: null,
  interviewStarted: null,
  completed: null,
  noShow: null,
};

/** The non-empty buckets are exactly these, each within one sampling step (the answers fall between samples). */
const expectBuckets = (acc: SlotAccount, expected: Partial<SlotAccount>, step: number) => {
  expect(SLOT_BUCKETS.filter((b) => acc[b] > 1e-9).sort()).toEqual(Object.keys(expected).sort());
  for (const [b, minutes] of Object.entries(expected)) {
    const got = acc[b as keyof SlotAccount];
    if (Math.abs(got - minutes) > step + 1e-9) throw new Error(`${b}: ${got} minutes, expected ${minutes} ± ${step}`);
  }
};

describe('fair-day slot accounting on a timeline built by hand', () => {
  it('puts every slot minute in the bucket its offer, interview or idle cause says', () => {
    const day = handDay();
    // Seeker 1's accepted offer: both answers as the seed decided them, the later one is the acceptance.
    const d = decide(day, 1, 0);
    expect([d.seeker, d.recruiter]).toEqual(['accept', 'accept']);
    const accepted = 6 + Math.max(d.seekerAfter, d.recruiterAfter);
    const matches: SlotMatch[] = [
      // Seeker 0 (in line 0–20) is offered recruiter 0's job at 2; declined at 3, the slot released at 3.5.
      { ...none, seeker: 0, job: 0, recruiter: 0, offered: 2, created: 2, declined: 3, released: 3.5 },
      // Seeker 1 (joined at 5) is offered it at 6; both accept, the room at +0.5, a 10-minute interview.
      {
        ...none,
        seeker: 1,
        job: 0,
        recruiter: 0,
        offered: 6,
        created: 6,
        accepted,
        interviewStarted: accepted + 0.5,
        completed: accepted + 10.5,
        released: accepted + 10.5,
      },
    ];
    const entries = [
      { seeker: 0, joined: 0, ended: 20 },
      { seeker: 1, joined: 5, ended: accepted },
    ];
    const [r0, r1] = slotAccounting(day, matches, entries, { step: 0.05, latency: 1, lastStart: 1 });

    const first = Math.min(d.seekerAfter, d.recruiterAfter);
    const second = Math.max(d.seekerAfter, d.recruiterAfter) - first;
    expectBuckets(
      r0,
      {
        interviewing: 10,
        acceptedFirstYes: first,
        [d.seekerAfter <= d.recruiterAfter ? 'acceptedWaitRecruiter' : 'acceptedWaitSeeker']: second,
        declined: 1,
        toRoom: 0.5,
        endedNotReleased: 0.5,
        // 0–2: seeker 0 could take it (a minute of the round's reach, then a longer loss); 5–6: seeker 1.
        idleEligibleLatency: 2,
        idleEligibleLonger: 1,
        // 3.5–5 and from the interview's end to 20: only seeker 0 in line, whose pair here was declined.
        idlePairsTried: 1.5 + (20 - (accepted + 10.5)),
        idleNobody: 9,
        afterLastStart: 1,
      },
      0.05,
    );
    // Recruiter 1 is never offered: idle while seeker 0 could take it (a loss), except 2–3 when
    // seeker 0's offer at recruiter 0 held them.
    expectBuckets(
      r1,
      { idleEligibleLatency: 2, idleEligibleLonger: 17, idleSeekerHeld: 1, idleNobody: 9, afterLastStart: 1 },
      0.05,
    );
    for (const acc of [r0, r1]) expect(SLOT_BUCKETS.reduce((a, b) => a + acc[b], 0)).toBeCloseTo(30, 6);
  });
});

describe('the fair day without the stack (fair-day-sim.ts)', () => {
  it('never holds more offers than slots, never beats the hindsight optimum, and its slot time adds up', async () => {
    const shape = {
      seed: 5,
      dayMinutes: 90,
      recruiters: 3,
      demand: 3,
      ttlMinutes: 60,
      floor: { minScore: 50, requireEssential: true },
      brackets: [
        { afterMs: 0, relax: 0, essential: true },
        { afterMs: 5 * 60_000, relax: 15, essential: true },
        { afterMs: 15 * 60_000, relax: 30, essential: false },
      ],
    };
    const day = generateDay(shape);
    const sim = simulateDay(day);
    const opt = await offlineOptimum(day);
    expect(sim.interviews).toBeGreaterThan(0);
    expect(sim.interviews).toBeLessThanOrEqual(opt.interviews);
    // A pair is offered once; a seeker has one offer open at a time.
    expect(new Set(sim.matches.map((m) => `${m.seeker}:${m.job}`)).size).toBe(sim.matches.length);
    for (const rec of day.recruiters)
      for (let t = 0; t < day.shape.dayMinutes; t += 0.25) {
        const held = sim.matches.filter(
          (m) => m.recruiter === rec.idx && m.offered <= t && t < (m.released ?? Infinity),
        ).length;
        expect(held).toBeLessThanOrEqual(rec.capacity);
      }
    const accounts = slotAccounting(day, sim.matches, sim.entries);
    accounts.forEach((acc, r) =>
      expect(SLOT_BUCKETS.reduce((a, b) => a + acc[b], 0)).toBeCloseTo(
        day.recruiters[r].capacity * day.shape.dayMinutes,
        3,
      ),
    );
  });
});
