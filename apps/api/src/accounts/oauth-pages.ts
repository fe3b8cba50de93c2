import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { RECRUITER_SCOPES, SCOPE_DESCRIPTIONS, type Scope } from '#lib/scopes';
import { currentUser, formBody, list, str } from '../web/core';
import { html } from '../web/html';
import { postForm, sendPage } from '../web/layout';
import { OAUTH_CONSENT_TEXT } from '../web/messages';
import type { AuthorizeRequest } from './oauth-service';

const PARAMS = [
  'client_id',
  'redirect_uri',
  'response_type',
  'state',
  'scope',
  'code_challenge',
  'code_challenge_method',
  'resource',
] as const;

const RESOURCE_NAMES: Record<AuthorizeRequest['resource'], string> = {
  '/api/v1': 'the REST API',
  '/mcp': 'the MCP server',
};

/**
 * The consent page of the OAuth authorization server (decision 0260): a signed-in person sees
 * which client asks (its name and the origin of its client_id), for which resource and scopes,
 * may untick scopes, and approves or refuses. Only a person in the web app can answer: the POST
 * needs the session cookie and the CSRF token of this page, which an agent holding a bearer token
 * has neither of. Not signed in: the sign-in page first, then back here.
 */
const oauthPages: FastifyPluginAsync = async (app) => {
  const oauth = app.services.accounts.oauth;

  const fatalPage = (request: FastifyRequest, reply: FastifyReply, message: string) =>
    sendPage(request, reply, {
      title: OAUTH_CONSENT_TEXT.fatalTitle,
      status: 400,
      narrow: true,
      body: html`<h1>${OAUTH_CONSENT_TEXT.fatalTitle}</h1>
<p class="lead">${OAUTH_CONSENT_TEXT.fatalLead}</p>
<p>${message}</p>
<p><a href="/">Back to the start page</a></p>`,
    });

  const consentPage = (
    request: FastifyRequest,
    reply: FastifyReply,
    a: AuthorizeRequest,
    o: { chosen?: ReadonlySet<string>; error?: string } = {},
  ) => {
    const { user } = currentUser(request);
    const chosen = o.chosen ?? new Set<string>(a.scopes);
    const params = formBody(request);
    const source = request.method === 'GET' ? (request.query as Record<string, string>) : params;
    // The approval answers with a redirect to the client: the page's form-action must allow its origin.
    reply.formActionOrigins = [new URL(a.redirectUri).origin];
    const id = (s: Scope) => `consent-${s.replace(':', '-')}`;
    return sendPage(request, reply, {
      title: OAUTH_CONSENT_TEXT.title(a.client.name),
      status: o.error ? 400 : 200,
      narrow: true,
      body: html`<h1>${OAUTH_CONSENT_TEXT.title(a.client.name)}</h1>
<p class="lead">${OAUTH_CONSENT_TEXT.lead(a.client.name, RESOURCE_NAMES[a.resource])}</p>
<dl class="consent-facts">
  <dt>${OAUTH_CONSENT_TEXT.client}</dt><dd><strong>${a.client.name}</strong></dd>
  <dt>${OAUTH_CONSENT_TEXT.origin}</dt><dd class="mono">${a.client.origin}</dd>
  <dt>${OAUTH_CONSENT_TEXT.account}</dt><dd>${user.email}</dd>
</dl>
${o.error ? html`<div class="error-summary" role="alert" tabindex="-1" data-autofocus><p>${o.error}</p></div>` : ''}
${postForm(
  request,
  '/oauth/authorize',
  html`${PARAMS.map((k) => (source[k] ? html`<input type="hidden" name="${k}" value="${String(source[k])}">` : ''))}
<fieldset class="field${o.error ? ' has-error' : ''}" id="f-scopes">
  <legend>${OAUTH_CONSENT_TEXT.scopesLegend}</legend>
  <p class="hint">${OAUTH_CONSENT_TEXT.scopesHint}</p>
  ${a.scopes.map(
    (
      s,
    ) => html`<div class="choice"><input type="checkbox" name="scopes" value="${s}" id="${id(s)}" aria-describedby="${id(s)}-desc"${chosen.has(s) ? html` checked` : ''}>
  <div><label for="${id(s)}">${s}${RECRUITER_SCOPES.has(s) ? html` <span class="badge badge-recruiter">recruiter</span>` : ''}</label>
  <p class="hint scope-desc" id="${id(s)}-desc">${SCOPE_DESCRIPTIONS[s]}</p></div></div>`,
  )}
</fieldset>
<p class="hint">${OAUTH_CONSENT_TEXT.revokeHint}</p>
<p class="actions"><button type="submit" name="decision" value="approve" class="btn btn-primary">${OAUTH_CONSENT_TEXT.approve}</button>
<button type="submit" name="decision" value="refuse" class="btn">${OAUTH_CONSENT_TEXT.refuse}</button></p>`,
  { label: OAUTH_CONSENT_TEXT.formLabel },
)}`,
    });
  };

  app.get('/oauth/authorize', async (request, reply) => {
    const q = request.query as Record<string, string | undefined>;
    const checked = await oauth.checkAuthorize(q);
    if (!checked.ok && checked.fatal) return fatalPage(request, reply, checked.message);
    if (!checked.ok) return reply.redirect(checked.location, 303);
    currentUser(request); // not signed in: to the sign-in page, then back here
    return consentPage(request, reply, checked.request);
  });

  app.post('/oauth/authorize', async (request, reply) => {
    const { user } = currentUser(request);
    const b = formBody(request);
    const p: Record<string, string | undefined> = {};
    for (const k of PARAMS) p[k] = str(b, k) || undefined;
    const checked = await oauth.checkAuthorize(p);
    if (!checked.ok && checked.fatal) return fatalPage(request, reply, checked.message);
    if (!checked.ok) return reply.redirect(checked.location, 303);
    const a = checked.request;
    if (str(b, 'decision') !== 'approve') return reply.redirect(await oauth.decide(a, user.id, null), 303);
    // Only scopes the client asked for; the person may have unticked some, but not all.
    const kept = a.scopes.filter((s) => list(b, 'scopes').includes(s));
    if (!kept.length) return consentPage(request, reply, a, { chosen: new Set(), error: OAUTH_CONSENT_TEXT.noScope });
    request.log.info(
      { clientId: a.client.clientId, resource: a.resource, scopes: kept },
      `OAuth consent given [userId=${user.id}]`,
    );
    return reply.redirect(await oauth.decide(a, user.id, kept), 303);
  });
};
export default oauthPages;
