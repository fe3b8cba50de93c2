import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { SCOPE_PRESETS } from '#lib/scopes';
import { NotFoundError } from '#lib/errors';
import type { TokenRow } from '#db/accounts/tokens-repository';
import { currentUser, formBody, list, setFlash, str, takeFlash, type FormBody } from '../web/core';
import { html } from '../web/html';
import { fieldErrors, notice, sendPage, type FieldErrors } from '../web/layout';
import { connectedAppsSection, mintSection, mintedPanel, tokenListSection, tokenState } from './tokens-page-sections';

const accountPages: FastifyPluginAsync = async (app) => {
  const tokens = app.services.accounts.tokens;

  app.get('/settings/api-tokens', async (_request, reply) => reply.redirect('/account/api-tokens', 301));

  const tokensPage = async (
    request: FastifyRequest,
    reply: FastifyReply,
    o: { values?: FormBody; errors?: FieldErrors | null; minted?: { token: string; row: TokenRow } },
  ) => {
    const { user } = currentUser(request);
    const [rows, apps] = await Promise.all([tokens.list(user.id), tokens.listConnectedApps(user.id)]);
    const liveApps = apps.filter((t) => tokenState(t) === 'active');
    // A preset link (?preset=…) only pre-ticks boxes; nothing is created until the form is sent.
    const preset = SCOPE_PRESETS.find((p) => p.id === (request.query as { preset?: string } | undefined)?.preset);
    const chosen = new Set<string>(o.values ? list(o.values, 'scopes') : (preset?.scopes ?? []));
    const errors = o.errors ?? null;
    return sendPage(request, reply, {
      title: 'API tokens',
      status: errors ? 400 : 200,
      body: html`<h1>API tokens</h1>
<p class="lead">Personal access tokens let your agent or scripts call the <a href="/docs/api/">REST API</a> (or the <a href="/docs/agents.md">MCP server</a>) as you. Give each token only the scopes it needs. A token can never accept a match or enter an interview room: that is always you, here.</p>
${notice(request)}
${o.minted ? mintedPanel(o.minted) : ''}
${mintSection(request, { values: o.values, errors, preset, chosen, role: user.role })}
${tokenListSection(request, rows)}
${connectedAppsSection(request, liveApps)}`,
    });
  };

  app.get('/account/api-tokens', async (request, reply) => {
    const { user } = currentUser(request);
    // The new token is shown once, on the GET after the POST (a reload shows and mints nothing).
    const flash = takeFlash<{ id: string; token: string }>(request, reply, 'token-created');
    const row = flash ? (await tokens.list(user.id)).find((t) => t.id === flash.id) : undefined;
    return tokensPage(request, reply, row && flash ? { minted: { token: flash.token, row } } : {});
  });

  app.post('/account/api-tokens', async (request, reply) => {
    const { user } = currentUser(request);
    const b = formBody(request);
    const days = str(b, 'expires_in_days');
    try {
      const minted = await tokens.mint(user.id, {
        name: str(b, 'name'),
        scopes: list(b, 'scopes'),
        expiresAt: /^\d+$/.test(days) ? new Date(Date.now() + Number(days) * 86_400_000) : null,
      });
      setFlash(request, reply, 'token-created', { id: minted.row.id, token: minted.token });
      return reply.redirect('/account/api-tokens', 303);
    } catch (err) {
      const errors = fieldErrors(err);
      if (!errors) throw err;
      return tokensPage(request, reply, { values: b, errors });
    }
  });

  app.post<{ Params: { id: string } }>('/account/api-tokens/:id/revoke', async (request, reply) => {
    const { user } = currentUser(request);
    if (!/^[0-9a-f-]{36}$/i.test(request.params.id) || !(await tokens.revoke(user.id, request.params.id)))
      throw new NotFoundError('token', request.params.id);
    return reply.redirect('/account/api-tokens?done=token-revoked', 303);
  });
};

export default accountPages;
