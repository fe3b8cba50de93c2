import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createHarness, type Harness, type TestUser } from '../helpers/harness';
import { createJob, liveEvent } from '../events/helpers';
import {
  addToVocabulary,
  createSkillResolver,
  SHIPPED_SKILL_VOCABULARY,
  skills,
  spellingsOf,
} from '#domain/matchmaking/skills';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Skills as one vocabulary through the real app: what people type is stored with the canonical ids
 * it resolves to; search and the comparison route find and score an alias exactly as the canonical
 * name (alias recall); an alias added later re-resolves the stored rows so past jobs match.
 */
describe('skills as one vocabulary (API)', () => {
  let h: Harness;
  let rec: TestUser;
  let eventId: string;
  const ids: Record<string, string> = {};

  const titles = async (skillsParam: string) => {
    const r = await h.call({ method: 'GET', url: `/api/v1/jobs/search?skills=${encodeURIComponent(skillsParam)}` });
    expect(r.statusCode).toBe(200);
    return (r.json().jobs as Array<{ title: string; skill_overlap: number }>).map(
      (j) => `${j.title}:${j.skill_overlap}`,
    );
  };

  beforeAll(async () => {
    h = await createHarness({ env: { PUBLIC_CACHE_TTL_MS: '0' } });
    rec = await h.recruiter();
    eventId = (await liveEvent(h, rec)).id;
    const jobs: Array<[string, string[], string[]]> = [
      ['Data platform', ['PostgreSQL', 'Kubernetes'], ['Go']],
      ['Node backend', ['Node.js'], ['TypeScript', 'postgres']],
      ['Infra', ['k8s', 'golang'], []],
      ['Frontend', ['TypeScript', 'React'], ['nodejs']],
      ['Weaver', ['Underwater Basket Weaving'], []],
    ];
    for (const [title, essential_skills, bonus_skills] of jobs)
      ids[title] = (await createJob(h, rec, eventId, { title, essential_skills, bonus_skills })).id;
  }, 60_000);
  afterAll(async () => h?.close());

  it('stores what was typed and the canonical ids it resolved to', async () => {
    const row = await h.knex('jobs').where({ id: ids['Node backend'] }).first();
    expect(row.essential_skills).toEqual(['Node.js']);
    expect(row.bonus_skills).toEqual(['TypeScript', 'postgres']);
    expect([...row.skill_ids].sort()).toEqual(['nodejs', 'postgresql', 'typescript']);
    // The API answers with what was typed.
    const r = await h.call({ method: 'GET', url: `/api/v1/jobs/${ids['Node backend']}`, token: rec.token });
    expect(r.json().job.bonus_skills).toEqual(['TypeScript', 'postgres']);
    // An update re-resolves.
    const u = await h.call({
      method: 'PATCH',
      url: `/api/v1/jobs/${ids['Weaver']}`,
      token: rec.token,
      payload: { bonus_skills: ['K8S'] },
    });
    expect(u.statusCode).toBe(200);
    const w = await h.knex('jobs').where({ id: ids['Weaver'] }).first();
    expect([...w.skill_ids].sort()).toEqual(['kubernetes', 'underwater basket weaving']);
    const s = await h.seeker({ profile: { skills: ['Postgres', 'K8s', 'Weaving'] } });
    const p = await h.knex('profiles').where({ user_id: s.user.id }).first();
    expect(p.skills).toEqual(['Postgres', 'K8s', 'Weaving']);
    expect([...p.skill_ids].sort()).toEqual(['kubernetes', 'postgresql', 'weaving']);
  });

  it.each([
    ['postgres', 'postgresql'],
    ['k8s', 'kubernetes'],
    ['golang', 'go'],
    ['nodejs', 'node.js'],
    ['node', 'node.js'],
    ['ts', 'typescript'],
    ['Postgres,K8S', 'PostgreSQL,Kubernetes'],
    ['ts,nodejs,golang', 'typescript,node.js,go'],
  ])('search: %s finds exactly what %s finds (alias recall)', async (alias, canonical) => {
    const expected = await titles(canonical);
    expect(expected.length).toBeGreaterThan(0);
    expect(await titles(alias)).toEqual(expected);
  });

  it('search: an alias and its canonical name in one query ask for one skill; free text matches itself', async () => {
    expect(await titles('postgres,PostgreSQL,pgsql')).toEqual(await titles('postgresql'));
    expect(await titles('underwater  basket weaving')).toEqual(['Weaver:1']);
    expect(await titles('basket')).toEqual([]);
  });

  it('the comparison route scores a profile written in aliases exactly as one in canonical names', async () => {
    const canonical = await h.seeker({ profile: { skills: ['PostgreSQL', 'Kubernetes', 'Go'], experience_years: 3 } });
    const aliases = await h.seeker({ profile: { skills: ['postgres', 'k8s', 'golang'], experience_years: 3 } });
    const compare = async (s: TestUser) => {
      const r = await h.call({
        method: 'POST',
        url: `/api/v1/jobs/${ids['Data platform']}/comparison`,
        token: s.token,
      });
      expect(r.statusCode).toBe(200);
      return r.json().comparison;
    };
    const [a, b] = [await compare(canonical), await compare(aliases)];
    expect(b.match_score).toBe(a.match_score);
    expect(b.match_score).toBe(100);
    expect(b.strengths).toEqual(a.strengths);
    // The breakdown names the skills as the job wrote them.
    expect(b.strengths.join(' ')).toMatch(/PostgreSQL, Kubernetes|PostgreSQL and Kubernetes/);
  });

  it("the database resolves every spelling as the resolver does (the triggers' copy is in step)", async () => {
    const typed = SHIPPED_SKILL_VOCABULARY.skills.flatMap((s) =>
      spellingsOf(s).flatMap((x) => [x, ` ${x.toUpperCase()}  `]),
    );
    typed.push('Node  JS', 'node-js', 'Type Script', '\u00a0Postgres\u00a0', 'Ｋ８ｓ', 'Free  Text', '', '  ');
    const db = await h.app.services.deps.repos.skills.resolve(typed);
    expect([...db].sort()).toEqual(skills.idsOf(typed).sort());
    for (const t of typed.slice(-8))
      expect(await h.app.services.deps.repos.skills.resolve([t])).toEqual(skills.idsOf([t]));
  });

  it('re-resolves stored jobs and profiles when an alias is added (sync), so past rows match', async () => {
    const jobId = (await createJob(h, rec, eventId, { title: 'Legacy', essential_skills: ['PgSQL-Next'] })).id;
    const s = await h.seeker({ profile: { skills: ['pgsql next'] } });
    expect(await titles('postgresql')).not.toContain('Legacy:1');
    const repo = h.app.services.deps.repos.skills;
    const added = createSkillResolver(
      addToVocabulary(SHIPPED_SKILL_VOCABULARY, { id: 'postgresql', aliases: ['pgsql next'] }),
    );
    try {
      const r = await repo.sync(added);
      expect(r).toMatchObject({ jobs: 1, profiles: 1 });
      expect((await h.knex('jobs').where({ id: jobId }).first()).skill_ids).toEqual(['postgresql']);
      expect((await h.knex('profiles').where({ user_id: s.user.id }).first()).skill_ids).toEqual(['postgresql']);
      expect(await titles('postgresql')).toContain('Legacy:1');
      // A new job typed with the new alias resolves with it (the trigger reads the synced copy).
      const fresh = await createJob(h, rec, eventId, { title: 'Fresh', essential_skills: ['PGSQL-next'] });
      expect((await h.knex('jobs').where({ id: fresh.id }).first()).skill_ids).toEqual(['postgresql']);
      // Idempotent: a second sync changes nothing.
      expect(await repo.sync(added)).toMatchObject({ jobs: 0, profiles: 0 });
    } finally {
      await repo.sync(skills);
    }
    expect((await h.knex('jobs').where({ id: jobId }).first()).skill_ids).toEqual(['pgsql-next']);
  });

  it('`npm run skills -- add` writes the vocabulary file and re-resolves the database', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'skills-'));
    const file = path.join(dir, 'vocabulary.json');
    fs.copyFileSync(path.join(ROOT, 'domain/matchmaking/skill-vocabulary.json'), file);
    const jobId = (await createJob(h, rec, eventId, { title: 'Mesh', essential_skills: ['Istio Mesh'] })).id;
    const cli = (...args: string[]) =>
      run(process.execPath, ['--import', 'tsx', 'apps/ops/src/skills.ts', ...args, '--file', file], {
        cwd: ROOT,
        env: { ...process.env, DATABASE_URL: h.dbUrl },
      });
    try {
      const out = await cli(
        'add',
        'istio',
        '--label',
        'Istio',
        '--category',
        'Cloud and infrastructure',
        '--alias',
        'istio mesh',
      );
      expect(out.stdout).toMatch(/re-resolved 1 job\(s\)/);
      const written = JSON.parse(fs.readFileSync(file, 'utf8'));
      expect(written.skills.at(-1)).toEqual({
        id: 'istio',
        label: 'Istio',
        category: 'Cloud and infrastructure',
        aliases: ['istio mesh'],
      });
      expect((await h.knex('jobs').where({ id: jobId }).first()).skill_ids).toEqual(['istio']);
      // A clash is refused and changes nothing.
      await expect(cli('add', 'mysql', '--alias', 'postgres')).rejects.toMatchObject({
        stderr: expect.stringMatching(/names both/),
      });
    } finally {
      await h.app.services.deps.repos.skills.sync(skills);
      fs.rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);
});
