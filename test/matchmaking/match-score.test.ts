import {
  computeMatchScore,
  MATCH_SCORE_VERSION,
  tuneScore,
  tuningFor,
  type JobForScore,
  type SeekerForScore,
} from '#domain/matchmaking/match-score';
import { planMatches, type PlanEntry, type PlanJob } from '#activities/matchmaking/plan';

const job = (o: Partial<JobForScore> = {}): JobForScore => ({
  essentialSkills: ['TypeScript', 'PostgreSQL'],
  bonusSkills: ['Temporal', 'Go'],
  experienceMin: 4,
  salaryMin: 70_000,
  salaryMax: 90_000,
  location: 'Berlin',
  remotePreference: 'hybrid',
  ...o,
});
const seeker = (o: Partial<SeekerForScore> = {}): SeekerForScore => ({
  skills: ['typescript', ' PostgreSQL ', 'Temporal'],
  experienceYears: 2,
  location: 'Berlin, Germany',
  remotePreference: 'hybrid',
  ...o,
});

describe('match score v1', () => {
  it('weights each component and explains it', () => {
    const r = computeMatchScore(seeker(), job());
    expect(r.version).toBe(MATCH_SCORE_VERSION);
    expect(r.breakdown.essential_skills).toMatchObject({
      weight: 50,
      score: 1,
      matched: ['TypeScript', 'PostgreSQL'],
      missing: [],
    });
    expect(r.breakdown.bonus_skills).toMatchObject({ weight: 10, score: 0.5, matched: ['Temporal'] });
    expect(r.breakdown.experience).toMatchObject({ weight: 15, score: 0.5, required: 4, actual: 2 });
    expect(r.breakdown.salary).toMatchObject({ weight: 10, score: null });
    expect(r.breakdown.location).toMatchObject({ weight: 15, score: 1 });
    // (50·1 + 10·0.5 + 15·0.5 + 15·1) / (50 + 10 + 15 + 15) = 77.5 / 90
    expect(r.score).toBe(86.1);
  });

  it('leaves out components without data and scores mismatches down', () => {
    const none = computeMatchScore(seeker({ skills: [], remotePreference: null }), job({ bonusSkills: [] }));
    expect(none.breakdown.bonus_skills.score).toBeNull();
    expect(none.breakdown.location.score).toBeNull();
    expect(none.breakdown.essential_skills).toMatchObject({ score: 0, missing: ['TypeScript', 'PostgreSQL'] });
    // (50·0 + 15·0.5) / 65
    expect(none.score).toBe(11.5);

    const onsiteElsewhere = computeMatchScore(
      seeker({ remotePreference: 'hybrid', location: 'Lisbon' }),
      job({ remotePreference: 'onsite' }),
    );
    expect(onsiteElsewhere.breakdown.location.score).toBe(0.25);
    expect(
      computeMatchScore(seeker({ remotePreference: 'fully_remote' }), job({ remotePreference: 'onsite' })).breakdown
        .location.score,
    ).toBe(0);
  });

  it('salary: full when the range reaches the expectation, linear to 0 at a 25 % shortfall', () => {
    expect(computeMatchScore(seeker({ salaryExpectationMin: 80_000 }), job()).breakdown.salary.score).toBe(1);
    expect(computeMatchScore(seeker({ salaryExpectationMin: 100_000 }), job()).breakdown.salary.score).toBe(0.6);
    expect(computeMatchScore(seeker({ salaryExpectationMin: 200_000 }), job()).breakdown.salary.score).toBe(0);
    expect(
      computeMatchScore(seeker({ salaryExpectationMin: 80_000 }), job({ salaryMin: null, salaryMax: null })).breakdown
        .salary.score,
    ).toBeNull();
  });
});

describe('matching plan', () => {
  const entry = (id: string, enteredAtMs: number, skills: string[], liveEventId: string | null = null): PlanEntry => ({
    id,
    userId: `u-${id}`,
    liveEventId,
    enteredAtMs,
    seeker: { skills, experienceYears: 5, location: null, remotePreference: null },
  });
  const pjob = (id: string, liveEventId: string, essentialSkills: string[]): PlanJob => ({
    ...job({ essentialSkills, bonusSkills: [], remotePreference: null }),
    id,
    liveEventId,
  });

  it(
    'serves oldest first among comparable scores, better bands first, never over capacity, ' +
      'per-event entries only in their event',
    () => {
      const entries = [
        entry('old-poor', 1, ['cobol']),
        entry('mid-good', 2, ['TypeScript', 'PostgreSQL']),
        entry('new-good', 3, ['TypeScript', 'PostgreSQL']),
        entry('pinned', 0, ['TypeScript', 'PostgreSQL'], 'E2'),
      ];
      const jobs = [pjob('J1', 'E1', ['TypeScript', 'PostgreSQL']), pjob('J2', 'E2', ['TypeScript', 'PostgreSQL'])];
      const pairs = planMatches({
        entries,
        jobs,
        freeByEvent: new Map([
          ['E1', 2],
          ['E2', 0],
        ]),
        openInviteEventIds: new Set(['E1', 'E2']),
        excludedPairs: new Set(),
      });
      // E2 is full: the pinned entry waits; the two good entries take E1's two slots ahead of the older poor one.
      expect(pairs.map((p) => [p.entry.id, p.job.id])).toEqual([
        ['mid-good', 'J1'],
        ['new-good', 'J1'],
      ]);
      const one = planMatches({
        entries,
        jobs,
        freeByEvent: new Map([
          ['E1', 1],
          ['E2', 1],
        ]),
        openInviteEventIds: new Set(['E1']),
        excludedPairs: new Set(['mid-good:J1']),
      });
      expect(one.map((p) => [p.entry.id, p.job.id])).toEqual([
        ['pinned', 'J2'],
        ['new-good', 'J1'],
      ]);
    },
  );
});

describe('decline tuning (score v2)', () => {
  const berliner: SeekerForScore = {
    skills: ['TypeScript'],
    experienceYears: 5,
    location: 'Berlin',
    remotePreference: 'onsite',
  };
  const parisJob: JobForScore = {
    essentialSkills: ['TypeScript'],
    bonusSkills: [],
    experienceMin: 2,
    salaryMin: null,
    salaryMax: null,
    location: 'Paris',
    remotePreference: 'onsite',
  };

  it('halves a component per decline down to a quarter, and recomputes the total with the same rounding', () => {
    expect(tuningFor({ location: 1 })).toEqual({ location: 0.5 });
    expect(tuningFor({ location: 5, salary: 2 })).toEqual({ location: 0.25, salary: 0.25 });
    const base = computeMatchScore(berliner, parisJob);
    // essential 1 (50), experience 1 (15), location 0.5 (15; other city): 72.5 / 80.
    expect(base.score).toBe(90.6);
    const tuned = tuneScore(base, { location: 0.5 });
    // location weight 7.5: (50 + 15 + 3.75) / 72.5.
    expect(tuned.score).toBe(94.8);
    expect(tuned.breakdown.location.weight).toBe(7.5);
    expect(tuned.breakdown.tuning).toEqual({ location: 0.5 });
    expect(tuneScore(base, {})).toBe(base);
  });
});
