import { createHarness, eventually, type Harness, type TestUser } from '../helpers/harness';
import { createJob, createLiveEvent, join, matchOf } from './fixtures';
import { WebClient } from '../helpers/web-client';

/** TEMPORAL_UI_URL: the match page links a team owner to the match's workflow; nobody else, and nobody when unset. */
describe('match page: link to the workflow in the Temporal UI', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: {
        MATCHMAKER_INTERVAL_MS: '50',
        MATCH_ACCEPT_WINDOW_MS: '600000',
        TEMPORAL_UI_URL: 'http://ui.example.test:8233/',
      },
    });
  });
  afterAll(async () => h?.close());

  const as = async (u: TestUser) => {
    const c = new WebClient(h.app);
    c.cookies.set(
      'jf_session',
      (await h.app.services.accounts.sessions.create(u.user.id, { ip: null, userAgent: null })).token,
    );
    return c;
  };

  it(
    'shows team owners the link to match:<id> in the configured namespace; not members, not ' +
      'the seeker, not another team',
    async () => {
      const owner = await h.recruiter();
      const member = await h.recruiter({ teamId: owner.teamId! });
      const otherOwner = await h.recruiter();
      const event = await createLiveEvent(h, { teamId: owner.teamId!, slots: 1 });
      await createJob(h, { event });
      const seeker = await h.seeker();
      await join(h, seeker, event.slug);
      const match = await matchOf(h, seeker.user.id);

      const ownerPage = await (await as(owner)).get(`/matches/${match.id}`);
      expect(ownerPage.statusCode).toBe(200);
      const href = /id="temporal-ui-link">[^<]*<a href="([^"]+)"/.exec(ownerPage.body)?.[1];
      expect(href).toBe(
        `http://ui.example.test:8233/namespaces/${encodeURIComponent(h.config.TEMPORAL_NAMESPACE)}/workflows/${encodeURIComponent(`match:${match.id}`)}`,
      );
      // The id is the workflow's: Temporal knows a run under it (the row comes first, decision 0120).
      const described = await eventually(() =>
        h.temporal.workflow
          .getHandle(`match:${match.id}`)
          .describe()
          .catch(() => null),
      );
      expect(described.type).toBe('matchWorkflow');

      const memberPage = await (await as(member)).get(`/matches/${match.id}`);
      expect(memberPage.statusCode).toBe(200);
      expect(memberPage.body).not.toContain('temporal-ui-link');
      const seekerPage = await (await as(seeker)).get(`/matches/${match.id}`);
      expect(seekerPage.statusCode).toBe(200);
      expect(seekerPage.body).not.toContain('temporal-ui-link');
      expect(seekerPage.body).not.toContain('ui.example.test');
      expect((await (await as(otherOwner)).get(`/matches/${match.id}`)).statusCode).toBe(404);
    },
  );
});
