import { createHarness, type Harness } from '../helpers/harness';
import { createJob, createLiveEvent } from '../matches/fixtures';

/** The JSON-LD blocks of a page, parsed (what a crawler or an agent reads). */
function jsonLd(page: string): Array<Record<string, any>> {
  return [...page.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map((m) => JSON.parse(m[1]));
}

describe('event pages carry schema.org Event and JobPosting data (JSON-LD)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ worker: false });
  });
  afterAll(async () => h?.close());

  it('names the online event, its organiser and dates, and each open job with skills, salary and place', async () => {
    const r = await h.recruiter();
    const event = await createLiveEvent(h, { teamId: r.teamId!, slots: 2, visibility: 'open_invite' });
    await h
      .knex('live_events')
      .where({ id: event.id })
      .update({
        headline: 'Hiring day for tool builders',
        ends_at: new Date('2026-12-01T18:00:00Z'),
      });
    const remote = await createJob(h, {
      event,
      title: 'Compiler Engineer',
      essential_skills: ['Rust', 'LLVM'],
      bonus_skills: ['Go'],
      experience_min: 3,
      salary_min: 90000,
      salary_max: 120000,
      remote_preference: 'remote',
    });
    const onsite = await createJob(h, { event, title: 'SRE', location: 'Berlin', remote_preference: 'onsite' });
    const res = await h.call({ method: 'GET', url: `/events/${event.slug}` });
    expect(res.statusCode).toBe(200);
    const [block] = jsonLd(res.body);
    expect(block['@context']).toBe('https://schema.org');
    const graph: Array<Record<string, any>> = block['@graph'];
    const ev = graph.find((n) => n['@type'] === 'Event')!;
    expect(ev).toMatchObject({
      name: `Company ${event.slug}: Hiring day for tool builders`,
      url: `${h.config.publicBaseUrl}/events/${event.slug}`,
      eventAttendanceMode: 'https://schema.org/OnlineEventAttendanceMode',
      eventStatus: 'https://schema.org/EventScheduled',
      location: { '@type': 'VirtualLocation' },
      organizer: { '@type': 'Organization', name: `Company ${event.slug}` },
      endDate: '2026-12-01T18:00:00.000Z',
    });
    expect(Date.parse(ev.startDate)).not.toBeNaN();
    const postings = graph.filter((n) => n['@type'] === 'JobPosting');
    expect(postings.map((p) => p.title).sort()).toEqual(['Compiler Engineer', 'SRE']);
    const rust = postings.find((p) => p.identifier.value === remote.id)!;
    expect(rust).toMatchObject({
      hiringOrganization: { name: `Company ${event.slug}` },
      skills: 'Rust, LLVM, Go',
      jobLocationType: 'TELECOMMUTE',
      experienceRequirements: { monthsOfExperience: 36 },
      baseSalary: { '@type': 'MonetaryAmount', value: { minValue: 90000, maxValue: 120000, unitText: 'YEAR' } },
      validThrough: '2026-12-01T18:00:00.000Z',
    });
    expect(rust.description).toMatch(/Essential skills: Rust, LLVM\./);
    expect(Date.parse(rust.datePosted)).not.toBeNaN();
    const sre = postings.find((p) => p.identifier.value === onsite.id)!;
    expect(sre.jobLocation).toEqual({
      '@type': 'Place',
      address: { '@type': 'PostalAddress', addressLocality: 'Berlin' },
    });
    expect(sre.jobLocationType).toBeUndefined();
    expect(ev.about.map((a: { '@id': string }) => a['@id']).sort()).toEqual(postings.map((p) => p['@id']).sort());
  });

  it('text people wrote cannot end the block, and private events are not advertised', async () => {
    const r = await h.recruiter();
    const open = await createLiveEvent(h, { teamId: r.teamId!, slots: 1, visibility: 'open_invite' });
    await createJob(h, { event: open, title: 'Evil </script><script>alert(1)</script> & Co' });
    const page = (await h.call({ method: 'GET', url: `/events/${open.slug}` })).body;
    const [block] = jsonLd(page);
    expect(block['@graph'].find((n: any) => n['@type'] === 'JobPosting').title).toBe(
      'Evil </script><script>alert(1)</script> & Co',
    );
    expect(page).not.toContain('<script>alert(1)');

    const hidden = await createLiveEvent(h, { teamId: r.teamId!, slots: 1, visibility: 'private' });
    await createJob(h, { event: hidden });
    const privatePage = await h.call({ method: 'GET', url: `/events/${hidden.slug}` });
    expect(privatePage.statusCode).toBe(200);
    expect(jsonLd(privatePage.body)).toEqual([]);
  });
});
