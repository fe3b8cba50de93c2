import {
  addToVocabulary,
  compactSkill,
  createSkillResolver,
  normaliseSkill,
  SHIPPED_SKILL_VOCABULARY,
  skillId,
  skills,
  spellingsOf,
} from '#domain/matchmaking/skills';
import { computeMatchScore, type JobForScore, type SeekerForScore } from '#domain/matchmaking/match-score';
import { explainWait } from '#domain/matchmaking/wait-explanation';

const vocab = SHIPPED_SKILL_VOCABULARY;

describe('the skill vocabulary (data integrity)', () => {
  it('ships a few hundred skills, each with a normalised id, a label and a category', () => {
    expect(vocab.skills.length).toBeGreaterThanOrEqual(300);
    for (const s of vocab.skills) {
      expect(s.id).toMatch(/^[a-z0-9][a-z0-9+#.-]*$/);
      expect(normaliseSkill(s.id)).toBe(s.id);
      expect(s.label.trim()).not.toBe('');
      expect(s.category.trim()).not.toBe('');
    }
  });

  it('has unique ids and no spelling (exact or compact) that names two skills', () => {
    expect(new Set(vocab.skills.map((s) => s.id)).size).toBe(vocab.skills.length);
    const exact = new Map<string, string>();
    const compact = new Map<string, string>();
    const clashes: string[] = [];
    for (const s of vocab.skills)
      for (const spelling of spellingsOf(s)) {
        const n = normaliseSkill(spelling);
        for (const [map, key] of [
          [exact, n],
          [compact, compactSkill(n)],
        ] as const) {
          const other = map.get(key);
          if (other && other !== s.id) clashes.push(`${spelling}: ${other} / ${s.id}`);
          map.set(key, s.id);
        }
      }
    expect(clashes).toEqual([]);
  });

  it('resolves every listed id, label and alias to its skill, however it is cased and spaced', () => {
    const wrong: string[] = [];
    for (const s of vocab.skills)
      for (const spelling of spellingsOf(s))
        for (const typed of [spelling, spelling.toUpperCase(), `  ${spelling} `])
          if (skillId(typed) !== s.id) wrong.push(`${JSON.stringify(typed)} → ${skillId(typed)}, not ${s.id}`);
    expect(wrong).toEqual([]);
  });

  it('refuses an ambiguous vocabulary', () => {
    const two = (aliases: string[]) => ({
      skills: [
        { id: 'a', label: 'A', category: 'x', aliases: ['shared'] },
        { id: 'b', label: 'B', category: 'x', aliases },
      ],
    });
    expect(() => createSkillResolver(two(['shared']))).toThrow(/'shared' names both 'a' and 'b'/);
    expect(() => createSkillResolver(two(['sha-red']))).toThrow(/names both/);
    expect(() => createSkillResolver(two(['other']))).not.toThrow();
  });
});

describe('resolving typed skills', () => {
  it.each([
    ['Postgres', 'postgresql'],
    ['PostgreSQL', 'postgresql'],
    ['k8s', 'kubernetes'],
    ['Kubernetes', 'kubernetes'],
    ['golang', 'go'],
    ['Go', 'go'],
    ['nodejs', 'nodejs'],
    ['node', 'nodejs'],
    ['Node.js', 'nodejs'],
    ['Node JS', 'nodejs'],
    ['node-js', 'nodejs'],
    ['ts', 'typescript'],
    ['Type Script', 'typescript'],
    ['C++', 'cpp'],
    ['C#', 'csharp'],
    ['React-Native', 'react-native'],
  ])('%s → %s', (typed, id) => expect(skillId(typed)).toBe(id));

  it('keeps an unknown skill as free text that matches itself (normalised)', () => {
    expect(skillId('  Underwater   Basket Weaving ')).toBe('underwater basket weaving');
    expect(skillId('UNDERWATER BASKET WEAVING')).toBe(skillId('underwater basket weaving'));
    expect(skillId('   ')).toBe('');
    expect(skills.idsOf(['Postgres', 'postgresql', ' ', 'k8s', 'Foo'])).toEqual(['postgresql', 'kubernetes', 'foo']);
  });

  it('adds an alias or a skill, refusing one that names another skill', () => {
    const v = addToVocabulary(vocab, { id: 'postgresql', aliases: ['pgsql17', 'Postgres'] });
    expect(v.skills.find((s) => s.id === 'postgresql')!.aliases).toContain('pgsql17');
    expect(v.skills.find((s) => s.id === 'postgresql')!.aliases.filter((a) => a === 'Postgres')).toEqual([]);
    expect(createSkillResolver(v).idOf('PGSQL17')).toBe('postgresql');
    expect(skillId('pgsql17')).toBe('pgsql17'); // the shipped vocabulary is untouched
    const withNew = addToVocabulary(vocab, { id: 'htmx-pro', label: 'htmx Pro', aliases: ['hxpro'] });
    expect(createSkillResolver(withNew).idOf('HX Pro')).toBe('htmx-pro');
    expect(() => addToVocabulary(vocab, { id: 'newthing', aliases: [] })).toThrow(/give it a label/);
    expect(() => addToVocabulary(vocab, { id: 'mysql', aliases: ['postgres'] })).toThrow(/names both/);
  });
});

describe('alias recall in the match score and the wait explanation', () => {
  const job = (o: Partial<JobForScore> = {}): JobForScore => ({
    essentialSkills: ['PostgreSQL', 'Kubernetes'],
    bonusSkills: ['Node.js', 'TypeScript', 'Go'],
    experienceMin: 3,
    salaryMin: 60_000,
    salaryMax: 80_000,
    location: 'Berlin',
    remotePreference: 'hybrid',
    ...o,
  });
  const seeker = (skillList: string[]): SeekerForScore => ({
    skills: skillList,
    experienceYears: 3,
    location: 'Berlin',
    remotePreference: 'hybrid',
  });

  it('scores a profile written in aliases exactly as one written in canonical names', () => {
    const canonical = computeMatchScore(seeker(['PostgreSQL', 'Kubernetes', 'Node.js', 'TypeScript', 'Go']), job());
    const aliases = computeMatchScore(seeker(['postgres', 'k8s', 'nodejs', 'ts', 'golang']), job());
    expect(aliases).toEqual(canonical);
    expect(aliases.score).toBe(100);
    // The breakdown names the skills as the job wrote them.
    expect(aliases.breakdown.essential_skills.matched).toEqual(['PostgreSQL', 'Kubernetes']);
    expect(aliases.breakdown.bonus_skills.matched).toEqual(['Node.js', 'TypeScript', 'Go']);
    // A job written in aliases scores a canonical profile the same way, and names its own spelling.
    const aliasJob = computeMatchScore(
      seeker(['PostgreSQL', 'Kubernetes', 'Node.js', 'TypeScript', 'Go']),
      job({ essentialSkills: ['Postgres', 'k8s'], bonusSkills: ['node', 'ts', 'golang'] }),
    );
    expect(aliasJob.score).toBe(canonical.score);
    expect(aliasJob.breakdown.essential_skills.matched).toEqual(['Postgres', 'k8s']);
  });

  it('the wait explanation counts an alias as the essential skill it names', () => {
    const explain = (skillList: string[]) =>
      explainWait({
        nowMs: 1_000,
        entry: { enteredAtMs: 0, liveEventId: 'e1', seeker: seeker(skillList), position: 1, offering: false },
        events: [
          {
            id: 'e1',
            slug: 'fair',
            status: 'live',
            floor: { minScore: 50, requireEssential: true },
            room: { free: 1, slotsFree: 1, recruiters: 1, recruitersAvailable: 1, recruiterFree: 1 },
          },
        ],
        jobs: [{ ...job({ essentialSkills: ['PostgreSQL'] }), id: 'j1', liveEventId: 'e1', title: 'Backend' }],
        excludedJobIds: new Set(),
        brackets: [{ afterMs: 0, relax: 0, essential: true }],
      });
    const canonical = explain(['PostgreSQL']);
    expect(canonical.passingJobs).toBe(1);
    expect(explain(['postgres'])).toEqual(canonical);
    expect(explain(['MySQL']).passingJobs).toBe(0);
  });
});
