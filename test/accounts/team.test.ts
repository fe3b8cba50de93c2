import { createHash, randomBytes } from 'node:crypto';
import { openOutboxBody, SEALED_BODY_PREFIX } from '#lib/sealed';
import { createHarness, type Harness } from '../helpers/harness';
import { createEvent } from '../events/helpers';

describe('team settings and invites', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({
      env: { PUBLIC_CACHE_TTL_MS: '0', QUEUE_ENTRY_TTL_MS: '600000', TEAM_INVITE_TTL_MS: '600000' },
    });
  });
  afterAll(async () => h?.close());

  it('settings: defaults, user and team changes, role rules; the default visibility applies to new events', async () => {
    const owner = await h.recruiter();
    const member = await h.recruiter({ teamId: owner.teamId! });
    const seeker = await h.seeker();

    const initial = await h.call({ method: 'GET', url: '/api/v1/settings', token: owner.token });
    expect(initial.statusCode).toBe(200);
    expect(initial.json().settings).toMatchObject({
      user: { email: owner.user.email, notification_email: null },
      team: {
        team_id: owner.teamId,
        role: 'owner',
        auto_accept_matches: false,
        default_event_visibility: 'open_invite',
        notification_email: null,
      },
    });

    const patched = await h.call({
      method: 'PATCH',
      url: '/api/v1/settings',
      token: owner.token,
      payload: {
        user: { notification_email: 'me@example.com' },
        team: {
          auto_accept_matches: true,
          default_event_visibility: 'private',
          notification_email: 'talent@example.com',
        },
      },
    });
    expect(patched.statusCode).toBe(200);
    expect(patched.json().settings).toMatchObject({
      user: { notification_email: 'me@example.com' },
      team: {
        auto_accept_matches: true,
        default_event_visibility: 'private',
        notification_email: 'talent@example.com',
      },
    });
    expect(await h.knex('team_settings').where({ team_id: owner.teamId }).first()).toMatchObject({
      auto_accept_matches: true,
    });
    const partial = await h.call({
      method: 'PATCH',
      url: '/api/v1/settings',
      token: owner.token,
      payload: { team: { notification_email: null } },
    });
    expect(partial.json().settings.team).toMatchObject({ auto_accept_matches: true, notification_email: null });

    const e = await createEvent(h, owner, { visibility: undefined });
    expect(e.visibility).toBe('private');

    // Members see team settings but cannot change them; the refused call changes nothing (atomic).
    expect(
      (await h.call({ method: 'GET', url: '/api/v1/settings', token: member.token })).json().settings.team,
    ).toMatchObject({ role: 'member', auto_accept_matches: true });
    const denied = await h.call({
      method: 'PATCH',
      url: '/api/v1/settings',
      token: member.token,
      payload: { user: { notification_email: 'm@example.com' }, team: { auto_accept_matches: false } },
    });
    expect(denied.statusCode).toBe(403);
    expect(denied.json().code).toBe('TEAM_ROLE_REQUIRED');
    expect(
      (await h.call({ method: 'GET', url: '/api/v1/settings', token: member.token })).json().settings.user
        .notification_email,
    ).toBeNull();

    // Seekers have user settings only.
    const s = await h.call({ method: 'GET', url: '/api/v1/settings', token: seeker.token });
    expect(s.json().settings.team).toBeNull();
    expect(
      (
        await h.call({
          method: 'PATCH',
          url: '/api/v1/settings',
          token: seeker.token,
          payload: { user: { notification_email: 's@example.com' } },
        })
      ).statusCode,
    ).toBe(200);
    expect(
      (
        await h.call({
          method: 'PATCH',
          url: '/api/v1/settings',
          token: seeker.token,
          payload: { team: { auto_accept_matches: true } },
        })
      ).json().code,
    ).toBe('RECRUITER_TEAM_REQUIRED');

    for (const payload of [
      {},
      { user: { notification_email: 'not-an-email' } },
      { team: { auto_accept: true } },
      { theme: 'dark' },
    ]) {
      const r = await h.call({ method: 'PATCH', url: '/api/v1/settings', token: owner.token, payload });
      expect(r.statusCode).toBe(400);
      expect(r.json().code).toBe('VALIDATION');
    }
    expect(
      (
        await h.call({
          method: 'PATCH',
          url: '/api/v1/settings',
          token: await owner.tokenWith(['settings:read']),
          payload: { user: { notification_email: null } },
        })
      ).json(),
    ).toMatchObject({
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

    const created = await h.call({
      method: 'POST',
      url: '/api/v1/team/invites',
      token: owner.token,
      payload: { email, role: 'admin' },
    });
    expect(created.statusCode).toBe(201);
    const invite = created.json().invite;
    expect(invite).toMatchObject({
      email,
      role: 'admin',
      status: 'pending',
      invited_by: owner.user.id,
      accepted_by: null,
    });
    expect(created.body).not.toMatch(/inv_/);

    const mail = await h.knex('email_outbox').where({ to_address: email }).first();
    expect(mail).toMatchObject({ kind: 'team_invite', status: 'pending' });
    // The link is a credential: sealed at rest, readable only with the server key (decision 0163).
    expect(mail.body).not.toMatch(/inv_/);
    expect(mail.body.startsWith(SEALED_BODY_PREFIX)).toBe(true);
    const link = /http:\/\/jobfair\.test\/invites\/(inv_[A-Za-z0-9_-]+)/.exec(
      openOutboxBody(mail.body, h.config.APP_SECRET!),
    );
    expect(link).not.toBeNull();
    const token = link![1];
    const row = await h.knex('team_invites').where({ id: invite.id }).first();
    expect(row.token_hash).not.toContain(token);
    expect(JSON.stringify(row)).not.toContain(token);
    expect(row.token_hash).toBe(createHash('sha256').update(`team-invite:${token}`).digest('hex'));

    const dup = await h.call({
      method: 'POST',
      url: '/api/v1/team/invites',
      token: owner.token,
      payload: { email: email.toUpperCase() },
    });
    expect(dup.statusCode).toBe(409);
    expect(dup.json()).toMatchObject({ code: 'INVITE_ALREADY_PENDING', details: { invite_id: invite.id } });
    const alreadyMember = await h.call({
      method: 'POST',
      url: '/api/v1/team/invites',
      token: owner.token,
      payload: { email: member.user.email },
    });
    expect(alreadyMember.json().code).toBe('ALREADY_MEMBER');
    const notManager = await h.call({
      method: 'POST',
      url: '/api/v1/team/invites',
      token: member.token,
      payload: { email: 'x@example.com' },
    });
    expect(notManager.statusCode).toBe(403);
    expect(notManager.json().code).toBe('TEAM_ROLE_REQUIRED');
    expect(
      (await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: 'nope' } }))
        .statusCode,
    ).toBe(400);
    expect(
      (
        await h.call({
          method: 'POST',
          url: '/api/v1/team/invites',
          token: owner.token,
          payload: { email: 'a@example.com', role: 'owner' },
        })
      ).statusCode,
    ).toBe(400);

    const listed = await h.call({ method: 'GET', url: '/api/v1/team/invites', token: owner.token });
    expect(listed.json().data.map((i: { id: string }) => i.id)).toEqual([invite.id]);
    const stranger = await h.recruiter();
    expect((await h.call({ method: 'GET', url: '/api/v1/team/invites', token: stranger.token })).json().data).toEqual(
      [],
    );
    expect(
      (await h.call({ method: 'DELETE', url: `/api/v1/team/invites/${invite.id}`, token: stranger.token })).statusCode,
    ).toBe(404);

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
    expect(
      (await h.call({ method: 'GET', url: '/api/v1/team/invites', token: owner.token })).json().data[0],
    ).toMatchObject({ status: 'accepted', accepted_by: invitee.id });
    const revokeAccepted = await h.call({
      method: 'DELETE',
      url: `/api/v1/team/invites/${invite.id}`,
      token: owner.token,
    });
    expect(revokeAccepted.statusCode).toBe(409);
    expect(revokeAccepted.json().code).toBe('INVITE_ALREADY_ACCEPTED');

    // A revoked link stops working; revoking again is a no-op.
    const email2 = `second-${randomBytes(4).toString('hex')}@example.com`;
    const inv2 = (
      await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: email2 } })
    ).json().invite;
    const token2 = /invites\/(inv_[A-Za-z0-9_-]+)/.exec(
      openOutboxBody((await h.knex('email_outbox').where({ to_address: email2 }).first()).body, h.config.APP_SECRET!),
    )![1];
    const revoked = await h.call({ method: 'DELETE', url: `/api/v1/team/invites/${inv2.id}`, token: owner.token });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().invite.status).toBe('revoked');
    expect(
      (await h.call({ method: 'DELETE', url: `/api/v1/team/invites/${inv2.id}`, token: owner.token })).statusCode,
    ).toBe(200);
    const u2 = await accounts.insertUser({ email: email2, display_name: 'Too Late', role: 'recruiter' });
    await expect(invites.acceptInvite(u2.id, token2)).rejects.toMatchObject({ code: 'INVITE_REVOKED' });
    expect(await accounts.findMembership(u2.id)).toBeUndefined();
    // After revoking, the address can be invited again.
    expect(
      (await h.call({ method: 'POST', url: '/api/v1/team/invites', token: owner.token, payload: { email: email2 } }))
        .statusCode,
    ).toBe(201);
  });

  it('the migration seals invite e-mails written before sealing, and the sender opens them', async () => {
    const [plain] = await h
      .knex('email_outbox')
      .insert({
        to_address: 'old@example.com',
        kind: 'team_invite',
        subject: 'Old invite',
        body: 'Accept the invite: http://jobfair.test/invites/inv_oldplaintoken',
      })
      .returning('*');
    const migration = await import('#db/migrations/20261122160002_seal_invite_emails');
    const saved = process.env.APP_SECRET;
    process.env.APP_SECRET = h.config.APP_SECRET; // the key of the environment that runs the migration
    try {
      await migration.up(h.knex);
      await migration.up(h.knex); // idempotent: sealed rows stay as they are
    } finally {
      if (saved === undefined) delete process.env.APP_SECRET;
      else process.env.APP_SECRET = saved;
    }
    const row = await h.knex('email_outbox').where({ id: plain.id }).first();
    expect(row.body).not.toContain('inv_oldplaintoken');
    expect(openOutboxBody(row.body, h.config.APP_SECRET!)).toBe(plain.body);
  });
});
