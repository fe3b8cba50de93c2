import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import websocket from '@fastify/websocket';
import { mapError } from '../plugins/errors';
import { codeMessage, issueMessage } from './messages';
import {
  CSRF_COOKIE,
  CsrfError,
  LoginRequiredError,
  SESSION_COOKIE,
  newCsrfSeed,
  originAllowed,
  parseCookies,
  parseFormUrlEncoded,
  setCookie,
  verifyCsrf,
  wantsJson,
} from './core';
import { sendPage } from './layout';
import { html, type SafeHtml } from './html';
import authPages from '../accounts/auth-pages';
import accountPages from '../accounts/tokens-pages';
import oauthPages from '../accounts/oauth-pages';
import eventsPages from '../events/events-pages';
import queuePages from '../queue/queue-pages';
import matchesPages from '../matches/matches-pages';
import roomPages from '../room/room-pages';
import consoleTeamPages from '../accounts/console-team-pages';
import consoleEventsPages from '../events/console-events-pages';
import consoleJobsPages from '../events/console-jobs-pages';
import consoleCandidatesPages from '../events/console-candidates-pages';
import consoleMatchingPages from '../events/console-matching-pages';
import invitesPages from '../accounts/invites-pages';
import webhooksPages from '../webhooks/webhooks-pages';
import billingPages from '../billing/billing-pages';
import livePages from '../notifications/live-pages';

const STATIC_DIR = path.join(__dirname, 'static');
const TYPES: Record<string, string> = {
  '.css': 'text/css; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
};

/**
 * Everything a page may load: this origin only (no CDN, no inline script), media for the room.
 * Forms post to this origin only, except the hosted video provider's origin (when configured):
 * "Enter the interview room" answers 303 to the provider's room, and `form-action` also governs
 * where a form's redirect may go.
 */
export function contentSecurityPolicy(videoProviderUrl?: string, liveKitUrl?: string): string {
  const providerOrigin = videoProviderUrl ? new URL(videoProviderUrl).origin : null;
  // LiveKit's client also asks the server over HTTP(S) (why a connection failed): its origin as http(s).
  const liveKitHttp = liveKitUrl ? new URL(liveKitUrl.replace(/^ws/, 'http')).origin : null;
  return CSP_BASE.map((d) =>
    d === "form-action 'self'" && providerOrigin
      ? `${d} ${providerOrigin}`
      : d.startsWith('connect-src') && liveKitHttp
        ? `${d} ${liveKitHttp}`
        : d,
  ).join('; ');
}

const CSP_BASE = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data: https:",
  "media-src 'self' blob: mediastream:",
  "connect-src 'self' ws: wss:",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
];

/**
 * The web application for humans: server-rendered pages at the root paths (sign-up, sign-in,
 * onboarding, account area, event and queue pages, match pages, the interview room and its
 * WebSocket signalling, the recruiter console, invites). Session-authenticated with an HttpOnly
 * cookie; every POST carries a CSRF token. Pages call the same services as the API.
 */
const webApp: FastifyPluginAsync = async (app) => {
  const sessions = app.services.accounts.sessions;
  const CSP = contentSecurityPolicy(
    app.config.VIDEO_PROVIDER_URL,
    app.config.VIDEO_PROVIDER === 'livekit' ? app.config.LIVEKIT_URL : undefined,
  );
  const canonical = new URL(app.config.publicBaseUrl);

  // Forms post application/x-www-form-urlencoded; the parser lives only in this plugin's scope.
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 256 * 1024 },
    (_req, body, done) => {
      try {
        done(null, parseFormUrlEncoded(String(body)));
      } catch (err) {
        done(err as Error, undefined);
      }
    },
  );

  // Keep the pages out of the API's OpenAPI document; note each page's methods (see answerGetOnPostAddresses).
  const routes = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    route.schema = { ...(route.schema ?? {}), hide: true };
    const methods = routes.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) methods.add(m);
    routes.set(route.url, methods);
  });

  app.decorateRequest('webSession', null);
  app.decorateRequest('csrfSeed', '');
  app.decorateReply('formActionOrigins', null);
  // One canonical origin: a page asked for on another host name of this server (127.0.0.1 when
  // PUBLIC_BASE_URL says localhost) moves to PUBLIC_BASE_URL before any cookie is set, so the
  // session, the CSRF cookie and the room links all live on one origin. Only reads move: a
  // redirected POST would lose its body; those still pass the Origin check (same host).
  app.addHook('onRequest', async (request, reply) => {
    if (!app.config.CANONICAL_HOST_REDIRECT || (request.method !== 'GET' && request.method !== 'HEAD')) return;
    const host = request.headers.host;
    if (!host || host === canonical.host || request.url.startsWith('/static/')) return;
    return reply.redirect(`${canonical.origin}${request.url}`, 308);
  });
  app.addHook('onRequest', async (request, reply) => {
    if (reply.sent) return;
    // Assets need neither a session nor a CSRF seed (and no database round trip).
    if (request.url.startsWith('/static/')) return;
    const cookies = parseCookies(request.headers.cookie);
    request.webSession = await sessions.resolve(cookies[SESSION_COOKIE]);
    if (cookies[SESSION_COOKIE] && !request.webSession) setCookie(request, reply, SESSION_COOKIE, '', 0);
    else if (request.webSession?.renewed)
      setCookie(request, reply, SESSION_COOKIE, cookies[SESSION_COOKIE], sessions.ttlMs / 1000);
    const seed = cookies[CSRF_COOKIE];
    if (seed && /^[A-Za-z0-9_-]{32}$/.test(seed)) request.csrfSeed = seed;
    else {
      request.csrfSeed = newCsrfSeed();
      setCookie(request, reply, CSRF_COOKIE, request.csrfSeed, null);
    }
  });

  // Every state-changing request: same origin (when the browser says) and a valid CSRF token.
  app.addHook('preHandler', async (request) => {
    if (request.method === 'GET' || request.method === 'HEAD' || request.method === 'OPTIONS') return;
    if (!originAllowed(request, app.config.publicBaseUrl)) throw new CsrfError();
    const body = request.body as Record<string, unknown> | undefined;
    const presented = request.headers['x-csrf-token'] ?? body?._csrf;
    if (!verifyCsrf(app.appSecret, request, Array.isArray(presented) ? presented[0] : presented)) throw new CsrfError();
  });

  app.addHook('onSend', async (request, reply, payload) => {
    // A page whose form answers with a redirect elsewhere (the OAuth consent page) names that origin.
    const formTargets = reply.formActionOrigins;
    reply.header(
      'content-security-policy',
      formTargets?.length ? CSP.replace("form-action 'self'", `form-action 'self' ${formTargets.join(' ')}`) : CSP,
    );
    reply.header('x-content-type-options', 'nosniff');
    reply.header('x-frame-options', 'DENY');
    if (!reply.hasHeader('referrer-policy')) reply.header('referrer-policy', 'same-origin');
    if (request.protocol === 'https') reply.header('strict-transport-security', 'max-age=31536000');
    return payload;
  });

  app.setErrorHandler((err, request, reply: FastifyReply) => {
    if (err instanceof LoginRequiredError && !wantsJson(request)) {
      const next =
        request.method === 'GET'
          ? request.url
          : (request.headers.referer && safeReferer(request.headers.referer, request)) || '/';
      return reply.redirect(`/login?next=${encodeURIComponent(next)}`, 303);
    }
    const mapped = mapError(err, request);
    if (mapped.status >= 500) request.log.error({ err }, 'web request failed');
    else request.log.info({ code: mapped.body.code }, 'web request refused');
    if (mapped.headers) reply.headers(mapped.headers);
    if (wantsJson(request)) return reply.code(mapped.status).send(mapped.body);
    return sendPage(request, reply, {
      title: errorTitle(mapped.status),
      status: mapped.status,
      narrow: true,
      body: html`<h1>${errorTitle(mapped.status)}</h1>
<p class="lead">${codeMessage(mapped.body.code, mapped.body.error)}</p>
${validationList(mapped.body.details)}
<p><a href="/">Back to the start page</a></p>`,
    });
  });

  // Static assets: read once at start, served with an ETag (no CDN, nothing from the internet).
  // A capability's scripts may sit in a folder of their own (static/room/ → /static/room/<file>).
  const assets = new Map<string, { body: Buffer; type: string; etag: string }>();
  for (const file of fs.readdirSync(STATIC_DIR, { recursive: true, encoding: 'utf8' })) {
    const type = TYPES[path.extname(file)];
    if (!type) continue;
    const body = fs.readFileSync(path.join(STATIC_DIR, file));
    const name = file.split(path.sep).join('/');
    assets.set(name, { body, type, etag: `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"` });
  }
  // VIDEO_PROVIDER=livekit: the LiveKit client (its UMD build, global LivekitClient) from our own
  // node_modules, pinned in package-lock.json, served like our own scripts (no CDN).
  if (app.config.VIDEO_PROVIDER === 'livekit') {
    const body = fs.readFileSync(require.resolve('livekit-client'));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 16)}"`;
    assets.set('livekit-client.js', { body, type: TYPES['.js'], etag });
  }
  const serveAsset = async (
    request: FastifyRequest<{ Params: { dir?: string; file: string } }>,
    reply: FastifyReply,
  ) => {
    const { dir, file } = request.params;
    const a = assets.get(dir ? `${dir}/${file}` : file);
    if (!a) return reply.code(404).type('text/plain; charset=utf-8').send('Not found');
    reply.header('etag', a.etag).header('cache-control', 'public, max-age=300');
    if (request.headers['if-none-match'] === a.etag) return reply.code(304).send();
    return reply.type(a.type).send(a.body);
  };
  app.get<{ Params: { file: string } }>('/static/:file', serveAsset);
  app.get<{ Params: { dir: string; file: string } }>('/static/:dir/:file', serveAsset);

  await app.register(websocket, { options: { maxPayload: 64 * 1024 } });
  await app.register(authPages, { sessions });
  await app.register(accountPages);
  await app.register(oauthPages);
  await app.register(eventsPages);
  await app.register(queuePages);
  await app.register(matchesPages);
  await app.register(roomPages);
  // The recruiter console (/recruiter/**), one section per capability (web/console.ts is what they share).
  await app.register(consoleTeamPages);
  await app.register(consoleEventsPages);
  await app.register(consoleJobsPages);
  await app.register(consoleCandidatesPages);
  await app.register(consoleMatchingPages);
  await app.register(invitesPages);
  await app.register(webhooksPages);
  await app.register(billingPages);
  await app.register(livePages);
  answerGetOnPostAddresses(app, routes);
};

/** Forms whose page is not the parent of their POST address. */
const FORM_PAGES: Record<string, string> = {
  '/recruiter/events/:id/availability': '/recruiter/events/:id/matching',
  '/recruiter/events/:id/floor': '/recruiter/events/:id/matching',
  '/rooms/:matchId/complete': '/matches/:matchId',
};

/**
 * A refused form is shown again at its POST address (its fields, the entered values and what is
 * wrong), so the address bar then holds that address: opening it again (a reload that does not
 * resend, a bookmark, a shared link, a new tab) is a GET. Every POST-only page address answers a
 * GET with 303 to the page its form lives on (FORM_PAGES, else the nearest parent address that
 * is a page), never 404. Resending the form (the browser's reload after a POST) repeats a refused
 * submission, which changes nothing (bad input changes nothing).
 */
function answerGetOnPostAddresses(app: Parameters<FastifyPluginAsync>[0], routes: Map<string, Set<string>>): void {
  const isPage = (url: string) => routes.get(url)?.has('GET') ?? false;
  for (const [url, methods] of [...routes]) {
    if (!methods.has('POST') || methods.has('GET') || url.startsWith('/static/')) continue;
    let target = FORM_PAGES[url];
    if (!target) {
      target = url;
      while (target !== '/' && !isPage(target)) target = target.replace(/\/[^/]*$/, '') || '/';
    }
    const pattern = target;
    app.get<{ Params: Record<string, string> }>(url, async (request, reply) =>
      reply.redirect(
        pattern.replace(/:(\w+)/g, (_, k: string) => encodeURIComponent(request.params[k] ?? '')),
        303,
      ),
    );
  }
}

function safeReferer(referer: string, request: FastifyRequest): string | null {
  try {
    const u = new URL(referer);
    return u.host === request.headers.host ? u.pathname + u.search : null;
  } catch {
    return null;
  }
}

/** What was wrong, field by field in words (the catalogue), on the error page of a refused form or link. */
function validationList(details: unknown): SafeHtml | string {
  const issues = (details as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues) || issues.length === 0) return '';
  const items = issues
    .filter(
      (i): i is { path: string; message: string } => typeof i?.path === 'string' && typeof i?.message === 'string',
    )
    .map((i) => html`<li>${issueMessage(i)}</li>`);
  return items.length ? html`<ul class="error-list">${items}</ul>` : '';
}

function errorTitle(status: number): string {
  if (status === 400) return 'Please check your input';
  if (status === 401) return 'Please sign in';
  if (status === 402) return 'Payment needed';
  if (status === 403) return 'Not allowed';
  if (status === 404) return 'Page not found';
  if (status === 409) return 'That cannot be done right now';
  if (status === 429) return 'Too many requests';
  if (status === 503) return 'Temporarily unavailable';
  return 'Something went wrong';
}

export default webApp;
