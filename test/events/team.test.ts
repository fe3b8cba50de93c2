import { createHash, randomBytes } from 'node:crypto';
import { createHarness, eventually, type Harness } from '../helpers/harness';
import { createEvent, createJob, liveEvent, transition } from './helpers';

describe('recruiter jobs, candidates, settings and team invites', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ env: { PUBLIC_CACHE_TTL_MS: '0', QUEUE_ENTRY_TTL_MS: '600000', TEAM_INVITE_TTL_MS: '600000' } });
  });
  afterAll(async () => h?.close());

  it('jobs: create, read, list with filters, update, close (idempotent); salary and skills rules', async () => {
    const rec = await h.recruiter();
    const e1 = await createEvent(h, rec);
    const e2 = await createEvent(h, rec);
    const created = await h.call({
      method: 'POST',
      url: '/api/v1/jobs',
      token: rec.token,
      payload: { live_event_id: e1.id, title: ' Platform Engineer ', essential_skills: ['TypeScript', ' typescript', 'Go '], bonus_skills: ['k8s'], experience_min: 3, salary_min: 70000, salary_max: 90000, location: 'Remote EU', remote_preference: 'remote' },
    });
    expect(created.statusCode).toBe(201);
    const job = created.json().job;
    expect(job).toMatchObject({
      title: 'Platform Engineer',
      essential_skills: ['TypeScript', 'Go'],
      bonus_skills: ['k8s'],
      experience_min: 3,
      status: 'open',
      live_event_id: e1.id,
      event_slug: e1.slug,
      event_status: 'draft',
      closed_at: null,
      join_url: `http://jobfair.test/events/${e1.slug}`,
    });
    await createJob(h, rec, e2.id, { title: 'Other event' });

    expect((await h.call({ method: 'GET', url: `/api/v1/jobs/${job.id}`, token: rec.token })).json().job.id).toBe(job.id);
    const byEvent = await h.call({ method: 'GET', url: `/api/v1/jobs?live_event_id=${e1.id}`, token: rec.token });
    expect(byEvent.json().data.map((j: { id: string }) => j.id)).toEqual([job.id]);
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs', token: rec.token })).json().data).toHaveLength(2);

    const bad = async (method: 'POST' | 'PATCH', url: string, payload: Record<string, unknown>, path: string) => {
      const r = await h.call({ method, url, token: rec.token, payload });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('VALIDATION');
      expect(r.json().details.issues.map((i: { path: string }) => i.path).join(' ')).toContain(path);
    };
    await bad('POST', '/api/v1/jobs', { live_event_id: e1.id, title: 'x', essential_skills: ['Go'], salary_min: 10, salary_max: 5 }, 'body.salary_min');
    await bad('POST', '/api/v1/jobs', { live_event_id: e1.id, title: 'x', essential_skills: [] }, 'body.essential_skills');
    await bad('POST', '/api/v1/jobs', { live_event_id: e1.id, title: 'x', essential_skills: ['Go'], remote_preference: 'fully_remote' }, 'body.remote_preference');
    await bad('POST', '/api/v1/jobs', { live_event_id: e1.id, title: 'x', essential_skills: ['Go'], salary_min: -1 }, 'body.salary_min');
    await bad('POST', '/api/v1/jobs', { live_event_id: e1.id, title: 'x', essential_skills: ['Go'], team_id: rec.teamId }, 'body.team_id');
    await bad('POST', '/api/v1/jobs', { title: 'x', essential_skills: ['Go'] }, 'body.live_event_id');
    // The stored salary_max (90000) bounds a new salary_min.
    await bad('PATCH', `/api/v1/jobs/${job.id}`, { salary_min: 95000 }, 'body.salary_min');
    await bad('PATCH', `/api/v1/jobs/${job.id}`, {}, 'body');

    const patched = await h.call({ method: 'PATCH', url: `/api/v1/jobs/${job.id}`, token: rec.token, payload: { salary_max: 120000, salary_min: 95000, location: null } });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().job).toMatchObject({ salary_min: 95000, salary_max: 120000, location: null });

    const closed = await h.call({ method: 'POST', url: `/api/v1/jobs/${job.id}/close`, token: rec.token });
    expect(closed.statusCode).toBe(200);
    expect(closed.json().job.status).toBe('closed');
    expect(closed.json().job.closed_at).not.toBeNull();
    const again = await h.call({ method: 'POST', url: `/api/v1/jobs/${job.id}/close`, token: rec.token });
    expect(again.statusCode).toBe(200);
    expect(again.json().job.closed_at).toBe(closed.json().job.closed_at);
    const edit = await h.call({ method: 'PATCH', url: `/api/v1/jobs/${job.id}`, token: rec.token, payload: { title: 'x' } });
    expect(edit.statusCode).toBe(409);
    expect(edit.json().code).toBe('JOB_CLOSED');
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs?status=closed', token: rec.token })).json().data.map((j: { id: string }) => j.id)).toEqual([job.id]);

    const scopeless = await rec.tokenWith(['events:read']);
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs', token: scopeless })).json()).toMatchObject({ code: 'INSUFFICIENT_SCOPE', details: { required_scope: 'jobs:read' } });
    expect((await h.call({ method: 'GET', url: '/api/v1/jobs' })).statusCode).toBe(401);
  });

  it("candidates: seekers who joined the team's events, with profile summary; notes and ratings; other teams see nothing", async () => {
    const rec = await h.recruiter();
    const other = await h.recruiter();
    // No jobs: nobody is matched, the entries stay waiting.
    const e = await liveEvent(h, rec);
    const s1 = await h.seeker({ profile: { full_name: 'Ada L', title: 'Engineer', skills: ['TypeScript'], experience_years: 7, location: 'London' } });
    const s2 = await h.seeker();
    const outsider = await h.seeker();
    for (const s of [s1, s2]) expect((await h.call({ method: 'POST', url: '/api/v1/queue/join', token: s.token, payload: { live_event_slug: e.slug } })).statusCode).toBe(200);
    expect((await h.call({ method: 'POST', url: '/api/v1/queue/join', token: outsider.token })).statusCode).toBe(200);

    const list = await h.call({ method: 'GET', url: '/api/v1/candidates?limit=1', token: rec.token });
    expect(list.statusCode).toBe(200);
    expect(list.json().data.map((c: { user_id: string }) => c.user_id)).toEqual([s2.user.id]);
    const rest = await h.call({ method: 'GET', url: `/api/v1/candidates?limit=10&cursor=${encodeURIComponent(list.json().next_cursor)}`, token: rec.token });
    expect(rest.json()).toMatchObject({ has_more: false });
    expect(rest.json().data).toEqual([
      expect.objectContaining({
        user_id: s1.user.id,
        full_name: 'Ada L',
        title: 'Engineer',
        skills: ['TypeScript'],
        experience_years: 7,
        location: 'London',
        event_slugs: [e.slug],
        matches_count: 0,
        note: null,
      }),
    ]);

    const detail = await h.call({ method: 'GET', url: `/api/v1/candidates/${s1.user.id}`, token: rec.token });
    expect(detail.statusCode).toBe(200);
    expect(detail.json()).toMatchObject({ candidate: { user_id: s1.user.id }, matches: [] });

    const note = await h.call({ method: 'PUT', url: `/api/v1/candidates/${s1.user.id}/note`, token: rec.token, payload: { note: 'Strong on workflows', rating: 5 } });
    expect(note.statusCode).toBe(200);
    expect(note.json().note).toMatchObject({ note: 'Strong on workflows', rating: 5 });
    const replaced = await h.call({ method: 'PUT', url: `/api/v1/candidates/${s1.user.id}/note`, token: rec.token, payload: { note: 'Second look' } });
    expect(replaced.json().note).toMatchObject({ note: 'Second look', rating: null });
    expect((await h.call({ method: 'GET', url: `/api/v1/candidates/${s1.user.id}`, token: rec.token })).json().candidate.note).toMatchObject({ note: 'Second look', rating: null });
    for (const rating of [0, 6, 2.5]) {
      const r = await h.call({ method: 'PUT', url: `/api/v1/candidates/${s1.user.id}/note`, token: rec.token, payload: { note: 'x', rating } });
      expect(r.statusCode).toBe(400);
      expect(r.json().details.issues[0].path).toBe('body.rating');
    }

    // Not a candidate of this team / of another team → 404; lists are per team.
    expect((await h.call({ method: 'GET', url: `/api/v1/candidates/${outsider.user.id}`, token: rec.token })).statusCode).toBe(404);
    expect((await h.call({ method: 'PUT', url: `/api/v1/candidates/${outsider.user.id}/note`, token: rec.token, payload: { note: 'x' } })).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: `/api/v1/candidates/${s1.user.id}`, token: other.token })).statusCode).toBe(404);
    expect((await h.call({ method: 'PUT', url: `/api/v1/candidates/${s1.user.id}/note`, token: other.token, payload: { note: 'mine' } })).statusCode).toBe(404);
    expect((await h.call({ method: 'GET', url: '/api/v1/candidates', token: other.token })).json().data).toEqual([]);
    const readOnly = await rec.tokenWith(['candidates:read']);
    expect((await h.call({ method: 'PUT', url: `/api/v1/candidates/${s1.user.id}/note`, token: readOnly, payload: { note: 'x' } })).json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: 'candidates:write' },
    });
    expect((await h.call({ method: 'GET', url: '/api/v1/candidates', token: s1.token })).json().code).toBe('RECRUITER_TEAM_REQUIRED');
    await transition(h, rec, e.id, 'end');
  });

  it('candidates: a seeker matched with one of the team\'s jobs shows the match history', async () => {
    const rec = await h.recruiter();
    const e = await liveEvent(h, rec, { interview_slots: 2 });
    const job = await createJob(h, rec, e.id, { title: 'Workflow Engineer', essential_skills: ['TypeScript', 'PostgreSQL'] });
    const s = await h.seeker({ profile: { skills: ['TypeScript', 'PostgreSQL'] } });
    expect((await h.call({ method: 'POST', url: '/api/v1/queue/join', token: s.token, payload: { live_event_slug: e.slug } })).statusCode).toBe(200);
    // The real matchmaker makes the match.
    await eventually(async () => (await h.knex('matches').where({ seeker_user_id: s.user.id }).first()) ?? null, 20_000);
    const detail = await h.call({ method: 'GET', url: `/api/v1/candidates/${s.user.id}`, token: rec.token });
    expect(detail.statusCode).toBe(200);
    expect(detail.json().candidate.matches_count).toBe(1);
    expect(detail.json().matches).toEqual([expect.objectContaining({ job_id: job.id, job_title: 'Workflow Engineer', event_slug: e.slug })]);
    const ev = await h.call({ method: 'GET', url: `/api/v1/team/live-events/${e.id}`, token: rec.token });
    // matches_made counts every match of the event (a seeker waiting for "any event" may be matched here too).
    const [{ count }] = await h.knex('matches').where({ live_event_id: e.id }).count<{ count: number }[]>({ count: '*' });
    expect(count).toBeGreaterThanOrEqual(1);
    expect(ev.json().event).toMatchObject({ candidates_joined: 1, matches_made: count });
  });

  it('settings: defaults, user and team changes, role rules; the default visibility applies to new events', async () => {
    const owner = await h.recruiter();
    const member = await h.recruiter({ teamId: owner.teamId! });
    const seeker = await h.seeker();

    const initial = await h.call({ method: 'GET', url: '/api/v1/settings', token: owner.token });
    expect(initial.statusCode).toBe(200);
    expect(initial.json().settings).toMatchObject({
      user: { email: owner.user.email, notification_email: null },
      team: { team_id: owner.teamId, role: 'owner', auto_accept_matches: false, default_event_visibility: 'open_invite', notification_email: null },
    });

    const patched = await h.call({
      method: 'PATCH',
      url: '/api/v1/settings',
      token: owner.token,
      payload: { user: { notification_email: 'me@example.com' }, team: { auto_accept_matches: true, default_event_visibility: 'private', notification_email: 'talent@example.com' } },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().settings).toMatchObject({
      user: { notification_email: 'me@example.com' },
      team: { auto_accept_matches: true, default_event_visibility: 'private', notification_email: 'talent@example.com' },
    });
    expect(await h.knex('team_settings').where({ team_id: owner.teamId }).first()).toMatchObject({ auto_accept_matches: true });
    const partial = await h.call({ method: 'PATCH', url: '/api/v1/settings', token: owner.token, payload: { team: { notification_email: null } } });
    expect(partial.json().settings.team).toMatchObject({ auto_accept_matches: true, notification_email: null });

    const e = await createEvent(h, owner, { visibility: undefined });
    expect(e.visibility).toBe('private');

    // Members see team settings but cannot change them; the refused call changes nothing (atomic).
    expect((await h.call({ method: 'GET', url: '/api/v1/settings', token: member.token })).json().settings.team).toMatchObject({ role: 'member', auto_accept_matches: true });
    const denied = await h.call({ method: 'PATCH', url: '/api/v1/settings', token: member.token, payload: { user: { notification_email: 'm@example.com' }, team: { auto_accept_matches: false } } });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('TEAM_ROLE_REQUIRED');
    expect((await h.call({ method: 'GET', url: '/api/v1/settings', token: member.token })).json().settings.user.notification_email).toBeNull();

    // Seekers have user settings only.
    const s = await h.call({ method: 'GET', url: '/api/v1/settings', token: seeker.token });
    expect(s.json().settings.team).toBeNull();
    expect((await h.call({ method: 'PATCH', url: '/api/v1/settings', token: seeker.token, payload: { user: { notification_email: 's@example.com' } } })).statusCode).toBe(200);
    expect((await h.call({ method: 'PATCH', url: '/api/v1/settings', token: seeker.token, payload: { team: { auto_accept_matches: true } } })).json().code).toBe('RECRUITER_TEAM_REQUIRED');

    for (const payload of [{}, { user: { notification_email: 'not-an-email' } }, { team: { auto_accept: true } }, { theme: 'dark' }]) {
      const r = await h.call({ method: 'PATCH', url: '/api/v1/settings', token: owner.token, payload });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('VALIDATION');
    }
    expect((await h.call({ method: 'PATCH', url: '/api/v1/settings', token: await owner.tokenWith(['settings:read']), payload: { user: { notification_email: null } } })).json()).toMatchObject({
      code: 'INSUFFICIENT_SCOPE',
      details: { required_scope: 'settings:write' },
    });
  });

  it('invites: e-mail through the outbox with a one-time link (only its hash stored), list, revoke, accept', async () => {
    const owner = await h.recruiter();
    const member = await h.recruiter({ teamId: owner.teamId! });
    const accounts = h.app.services.deps.repos.accounts;
    const invites = h.app.services.accounts.invites;
    const email = `new-${randomBytes(4).toString('hex')}@example.com`;

    const created = await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email, role: 'admin' } });
    expect(created.statusCode).toBe(201);
    const invite = created.json().invite;
    expect(invite).toMatchObject({ email, role: 'admin', status: 'pending', invited_by: owner.user.id, accepted_by: null });
    expect(created.body).not.toMatch(/inv_/);

    const mail = await h.knex('email_outbox').where({ to_address: email }).first();
    expect(mail).toMatchObject({ kind: 'team_invite', status: 'pending' });
    const link = /http:\/\/jobfair\.test\/invites\/(inv_[A-Za-z0-9_-]+)/.exec(mail.body);
    expect(link).not.toBeNull();
    const token = link![1];
    const row = await h.knex('team_invites').where({ id: invite.id }).first();
    expect(row.token_hash).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.token_hash).toBe(createHash('sha256').update(`team-invite:${token}`).digest('hex'));

    const dup = await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: email.toUpperCase() } });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'INVITE_ALREADY_PENDING', details: { invite_id: invite.id } });
    const alreadyMember = await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: member.user.email } });
    expect(alreadyMember.json().code).toBe('ALREADY_MEMBER');
    const notManager = await h.call({ method: 'POST', url: '/api/v1/team/invites', token: member.token, payload: { email: 'x@example.com' } });
    expect(notManager.statusCode).toBe(403);
    expect(notManager.json().code).toBe('TEAM_ROLE_REQUIRED');
    expect((await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: 'nope' } })).statusCode).toBe(400);
    expect((await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: 'a@example.com', role: 'owner' } })).statusCode).toBe(400);

    const listed = await h.call({ method: 'GET', url: '/api/v1/team/invites', token: owner.token });
    expect(listed.json().data.map((i: { id: string }) => i.id)).toEqual([invite.id]);
    const stranger = await h.recruiter();
    expect((await h.call({ method: 'GET', url: '/api/v1/team/invites', token: stranger.token })).json().data).toEqual([]);
    expect((await h.call({ method: 'DELETE', url: `/api/v1/team/invites/${invite.id}`, token: stranger.token })).statusCode).toBe(404);

    // Accepting: wrong account, wrong role, unknown token are refused; the invited recruiter joins.
    const preview = await invites.previewInvite(token);
    expect(preview).toMatchObject({ email, role: 'admin', status: 'pending' });
    await expect(invites.acceptInvite(member.user.id, token)).rejects.toMatchObject({ code: 'INVITE_EMAIL_MISMATCH' });
    await expect(invites.acceptInvite(owner.user.id, 'inv_unknown')).rejects.toMatchObject({ status: 404 });
    const invitee = await accounts.insertUser({ email, display_name: 'New Recruiter', role: 'recruiter' });
    const accepted = await invites.acceptInvite(invitee.id, token);
    expect(accepted).toMatchObject({ teamId: owner.teamId, role: 'admin' });
    expect(await accounts.findMembership(invitee.id)).toMatchObject({ team_id: owner.teamId, role: 'admin' });
    expect(await invites.acceptInvite(invitee.id, token)).toMatchObject({ teamId: owner.teamId });
    expect((await h.call({ method: 'GET', url: '/api/v1/team/invites', token: owner.token })).json().data[0]).toMatchObject({ status: 'accepted', accepted_by: invitee.id });
    const revokeAccepted = await h.call({ method: 'DELETE', url: `/api/v1/team/invites/${invite.id}`, token: owner.token });
    expect(revokeAccepted.statusCode).toBe(409);
    expect(revokeAccepted.json().code).toBe('INVITE_ALREADY_ACCEPTED');

    // A revoked link stops working; revoking again is a no-op.
    const email2 = `second-${randomBytes(4).toString('hex')}@example.com`;
    const inv2 = (await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: email2 } })).json().invite;
    const token2 = /invites\/(inv_[A-Za-z0-9_-]+)/.exec((await h.knex('email_outbox').where({ to_address: email2 }).first()).body)![1];
    const revoked = await h.call({ method: 'DELETE', url: `/api/v1/team/invites/${inv2.id}`, token: owner.token });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().invite.status).toBe('revoked');
    expect((await h.call({ method: 'DELETE', url: `/api/v1/team/invites/${inv2.id}`, token: owner.token })).statusCode).toBe(200);
    const u2 = await accounts.insertUser({ email: email2, display_name: 'Too Late', role: 'recruiter' });
    await expect(invites.acceptInvite(u2.id, token2)).rejects.toMatchObject({ code: 'INVITE_REVOKED' });
    expect(await accounts.findMembership(u2.id)).toBeUndefined();
    // After revoking, the address can be invited again.
    expect((await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: email2 } })).statusCode).toBe(201);
  });
});
