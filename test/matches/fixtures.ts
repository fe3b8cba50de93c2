import { randomBytes } from 'node:crypto';
import { eventually, type Harness, type TestUser } from '../helpers/harness';
import { createMatchmakingActivities } from '#activities/matchmaking/matchmaking-activities';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import { createMatchmakingRepository } from '#db/matchmaking/matchmaking-repository';
import { createAccountsRepository } from '#db/accounts/accounts-repository';

/**
 * Test set-up for matchmaking. Live events are created directly in PostgreSQL with the status the
 * test needs (the liveEvent workflow belongs to the events capability); everything else goes
 * through the real API, services, workflows and activities.
 */
export interface EventFixture {
  id: string;
  slug: string;
  teamId: string;
}

export async function createLiveEvent(
  h: Harness,
  o: {
    teamId: string;
    slots: number;
    status?: 'draft' | 'live' | 'paused' | 'ended';
    visibility?: 'open_invite' | 'private';
  },
): Promise<EventFixture> {
  const slug = `ev-${randomBytes(5).toString('hex')}`;
  const [row] = await h
    .knex('live_events')
    .insert({
      team_id: o.teamId,
      slug,
      company_name: `Company ${slug}`,
      visibility: o.visibility ?? 'private',
      status: o.status ?? 'live',
      interview_slots: o.slots,
      started_at: (o.status ?? 'live') === 'live' ? h.knex.fn.now() : null,
    })
    .returning(['id', 'slug', 'team_id']);
  return { id: row.id, slug: row.slug, teamId: row.team_id };
}

export async function createJob(
  h: Harness,
  o: {
    event: EventFixture;
    title?: string;
    essential_skills?: string[];
    bonus_skills?: string[];
    experience_min?: number;
    salary_min?: number | null;
    salary_max?: number | null;
    location?: string | null;
    remote_preference?: 'remote' | 'hybrid' | 'onsite' | null;
  },
): Promise<{ id: string; title: string }> {
  const [row] = await h
    .knex('jobs')
    .insert({
      team_id: o.event.teamId,
      live_event_id: o.event.id,
      title: o.title ?? 'Backend Engineer',
      essential_skills: o.essential_skills ?? ['TypeScript'],
      bonus_skills: o.bonus_skills ?? ['PostgreSQL'],
      experience_min: o.experience_min ?? 2,
      salary_min: o.salary_min ?? null,
      salary_max: o.salary_max ?? null,
      location: o.location ?? null,
      remote_preference: o.remote_preference ?? 'remote',
    })
    .returning(['id', 'title']);
  return row;
}

export async function setSlots(h: Harness, eventId: string, slots: number): Promise<void> {
  await h.knex('live_events').where({ id: eventId }).update({ interview_slots: slots });
}

export async function setEventStatus(
  h: Harness,
  eventId: string,
  status: 'draft' | 'live' | 'paused' | 'ended',
): Promise<void> {
  await h
    .knex('live_events')
    .where({ id: eventId })
    .update({ status, ...(status === 'ended' ? { ended_at: h.knex.fn.now() } : {}) });
}

/** What the events capability's go-live does for us: wake the matchmaker. */
export async function kick(h: Harness): Promise<void> {
  await kickMatchmaker(h.temporal, h.config, 'manual');
}

export async function join(h: Harness, s: TestUser, slug?: string) {
  const res = await h.call({
    method: 'POST',
    url: '/api/v1/queue/join',
    token: s.token,
    payload: slug ? { live_event_slug: slug } : undefined,
  });
  if (res.statusCode !== 200) throw new Error(`join failed: ${res.statusCode} ${res.body}`);
  return res.json();
}

export async function queueStatus(h: Harness, s: TestUser) {
  const res = await h.call({ method: 'GET', url: '/api/v1/queue/status', token: s.token });
  if (res.statusCode !== 200) throw new Error(`status failed: ${res.statusCode} ${res.body}`);
  return res.json().queue_entry;
}

/** The match row of a seeker once the matchmaker has made one (and the workflow projected it). */
export async function matchOf(h: Harness, seekerId: string, where: Record<string, unknown> = {}, timeoutMs = 15_000) {
  return eventually(
    async () =>
      h
        .knex('matches')
        .where({ seeker_user_id: seekerId, ...where })
        .orderBy('created_at', 'desc')
        .first(),
    timeoutMs,
  );
}

/** The same use-case the session-authenticated web pages call (there is no API route to accept). */
export function matchesService(h: Harness) {
  return h.app.services.matches;
}

/**
 * The matchmaker's activity, run from the test process (extra concurrent rounds) over the
 * harness's side pool: as a second worker process would, it never takes the app's request
 * connections, so a round holding a transaction cannot starve the joins it runs beside.
 */
export function matchmakingActivities(h: Harness) {
  const knex = h.sideKnex();
  return createMatchmakingActivities({
    knex,
    client: h.temporal,
    config: h.config,
    matchmakingRepository: createMatchmakingRepository(knex),
    accountsRepository: createAccountsRepository(knex),
  });
}

/**
 * Runs one whole matching round from the test process and waits for its end. "Not matched" after
 * it is a fact about a round that saw the current state — not a guess after a fixed sleep, which a
 * loaded machine can outlast before the matchmaker's own round has even run.
 */
export async function roundCompleted(h: Harness): Promise<void> {
  await matchmakingActivities(h).runMatchingRound({ batchSize: 500 });
}
