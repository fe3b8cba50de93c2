import { randomBytes } from 'node:crypto';
import type { Harness, TestUser } from '../helpers/harness';

export const uniqueSlug = (prefix = 'ev') => `${prefix}-${randomBytes(4).toString('hex')}`;

export async function createEvent(h: Harness, rec: TestUser, body: Record<string, unknown> = {}) {
  const res = await h.call({
    method: 'POST',
    url: '/api/v1/live-events',
    token: rec.token,
    payload: { slug: uniqueSlug(), company_name: 'Acme', visibility: 'open_invite', ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create event: ${res.statusCode} ${res.body}`);
  return res.json().event as { id: string; slug: string; status: string; [k: string]: unknown };
}

export async function transition(
  h: Harness,
  rec: TestUser,
  eventId: string,
  move: 'go-live' | 'pause' | 'resume' | 'end',
  headers: Record<string, string> = {},
) {
  return h.call({ method: 'POST', url: `/api/v1/live-events/${eventId}/${move}`, token: rec.token, headers });
}

export async function liveEvent(h: Harness, rec: TestUser, body: Record<string, unknown> = {}) {
  const e = await createEvent(h, rec, body);
  const res = await transition(h, rec, e.id, 'go-live');
  if (res.statusCode !== 200) throw new Error(`go-live: ${res.statusCode} ${res.body}`);
  return res.json().event as typeof e;
}

export async function createJob(h: Harness, rec: TestUser, eventId: string, body: Record<string, unknown> = {}) {
  const res = await h.call({
    method: 'POST',
    url: '/api/v1/jobs',
    token: rec.token,
    payload: { live_event_id: eventId, title: 'Engineer', essential_skills: ['TypeScript'], ...body },
  });
  if (res.statusCode !== 201) throw new Error(`create job: ${res.statusCode} ${res.body}`);
  return res.json().job as { id: string; title: string; [k: string]: unknown };
}
