import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from '#lib/errors';
import { seal, unseal } from '#lib/sealed';
import type { ResolvedSession } from '../accounts/sessions-service';
import type { UserRow, TeamMembership } from '#db/accounts/accounts-repository';

export const SESSION_COOKIE = 'jf_session';
export const CSRF_COOKIE = 'jf_csrf';

declare module 'fastify' {
  interface FastifyRequest {
    /** The browser session of a web-application request (null when signed out). */
    webSession: ResolvedSession | null;
    /** Random per-browser value (cookie `jf_csrf`) the CSRF token is derived from. */
    csrfSeed: string;
  }
  interface FastifyReply {
    /** Origins this page's forms may end up at by redirect (CSP form-action); null: only our own. */
    formActionOrigins: string[] | null;
  }
}

/** A client asking for JSON (a `.json` path, or `Accept: application/json` without HTML) gets the error envelope, not a page. */
export function wantsJson(request: FastifyRequest): boolean {
  const p = request.url.split('?')[0];
  if (p.endsWith('.json')) return true;
  const accept = request.headers.accept ?? '';
  return accept.includes('application/json') && !accept.includes('text/html');
}

/** Thrown by pages that need a signed-in user: the error handler redirects to /login?next=… */
export class LoginRequiredError extends AppError {
  constructor() {
    super(401, 'LOGIN_REQUIRED', 'Sign in to continue');
  }
}

/** Thrown when a POST carries no valid CSRF token (or a foreign Origin). */
export class CsrfError extends AppError {
  constructor() {
    super(403, 'CSRF', 'This form has expired or did not come from this site. Reload the page and try again.');
  }
}

export function parseCookies(header: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  if (!header) return out;
  for (const part of header.split(';')) {
    const i = part.indexOf('=');
    if (i < 0) continue;
    const k = part.slice(0, i).trim();
    const v = part.slice(i + 1).trim();
    if (!k || k in out) continue;
    try {
      out[k] = decodeURIComponent(v);
    } catch {
      out[k] = v;
    }
  }
  return out;
}

/** HttpOnly, SameSite=Lax, Path=/, and Secure when the request arrived over TLS (trustProxy honours X-Forwarded-Proto). */
export function setCookie(
  request: FastifyRequest,
  reply: FastifyReply,
  name: string,
  value: string,
  maxAgeSeconds: number | null,
): void {
  const parts = [`${name}=${encodeURIComponent(value)}`, 'Path=/', 'HttpOnly', 'SameSite=Lax'];
  if (maxAgeSeconds !== null) parts.push(`Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`);
  if (request.protocol === 'https') parts.push('Secure');
  const prev = reply.getHeader('set-cookie');
  const list = Array.isArray(prev) ? prev.map(String) : prev ? [String(prev)] : [];
  reply.header('set-cookie', [...list.filter((c) => !c.startsWith(`${name}=`)), parts.join('; ')]);
}

export const newCsrfSeed = (): string => randomBytes(24).toString('base64url');

/**
 * Signed double-submit token: HMAC(server key, browser seed cookie + session id). A page on
 * another site can neither read the HttpOnly seed nor compute the HMAC; signing in changes it.
 */
export function csrfToken(secret: string, request: FastifyRequest): string {
  return createHmac('sha256', secret)
    .update(`csrf|${request.csrfSeed}|${request.webSession?.id ?? ''}`)
    .digest('base64url');
}

export function verifyCsrf(secret: string, request: FastifyRequest, presented: unknown): boolean {
  if (typeof presented !== 'string' || !presented) return false;
  const expected = Buffer.from(csrfToken(secret, request));
  const got = Buffer.from(presented);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/** Same-origin check for state-changing requests and WebSocket upgrades (when the browser sends Origin). */
export function originAllowed(request: FastifyRequest, publicBaseUrl: string): boolean {
  const origin = request.headers.origin;
  if (!origin) return true;
  if (origin === 'null') return false;
  try {
    const o = new URL(origin);
    if (o.host === request.headers.host) return true;
    return o.origin === new URL(publicBaseUrl).origin;
  } catch {
    return false;
  }
}

export function currentUser(request: FastifyRequest): { user: UserRow; membership: TeamMembership | null } {
  const s = request.webSession;
  if (!s) throw new LoginRequiredError();
  return { user: s.user, membership: s.membership };
}

/** Only local paths: `/x`, never `//host` or `/\host` (no open redirects). */
export function safeNext(next: unknown, fallback = '/'): string {
  if (
    typeof next !== 'string' ||
    !next.startsWith('/') ||
    next.startsWith('//') ||
    next.startsWith('/\\') ||
    // An OAuth authorization request (client, redirect, scopes, PKCE, resource) is longer than most paths.
    next.length > 2048
  )
    return fallback;
  return next;
}

/** Where a signed-in user lands: onboarding first, then their home. */
export function homeFor(user: UserRow): string {
  if (!user.onboarding_completed_at) return '/onboarding';
  return user.role === 'recruiter' ? '/recruiter' : '/';
}

export type FormBody = Record<string, string | string[]>;

export function formBody(request: FastifyRequest): FormBody {
  const b = request.body;
  return b && typeof b === 'object' && !Array.isArray(b) ? (b as FormBody) : {};
}

/** The single value of a form field (the last one when repeated). */
export function str(body: FormBody, name: string): string {
  const v = body[name];
  if (Array.isArray(v)) return v[v.length - 1] ?? '';
  return v ?? '';
}

export function list(body: FormBody, name: string): string[] {
  const v = body[name];
  if (v === undefined) return [];
  return Array.isArray(v) ? v : [v];
}

export function parseFormUrlEncoded(text: string): FormBody {
  const out: FormBody = {};
  for (const [k, v] of new URLSearchParams(text)) {
    const prev = out[k];
    if (prev === undefined) out[k] = v;
    else out[k] = Array.isArray(prev) ? [...prev, v] : [prev, v];
  }
  return out;
}

export const FLASH_COOKIE = 'jf_flash';
const FLASH_MAX_AGE_S = 120;

/**
 * Post/redirect/get for results that may be shown once (a new token, a webhook secret, a test
 * delivery's outcome): the POST seals the result into a short-lived HttpOnly cookie bound to the
 * session and redirects; the next GET shows it and clears the cookie. A reload shows nothing new
 * and repeats nothing; the cookie is AES-GCM sealed, so the secret is never readable in transit logs.
 */
export function setFlash(request: FastifyRequest, reply: FastifyReply, kind: string, data: unknown): void {
  const sealedValue = seal(
    JSON.stringify({ kind, data }),
    request.server.appSecret,
    `web-flash:${request.webSession?.id ?? ''}`,
  );
  setCookie(request, reply, FLASH_COOKIE, sealedValue, FLASH_MAX_AGE_S);
}

/** The flash of this kind (once), or null; clears the cookie whenever one is present. */
export function takeFlash<T>(request: FastifyRequest, reply: FastifyReply, kind: string): T | null {
  const raw = parseCookies(request.headers.cookie)[FLASH_COOKIE];
  if (!raw) return null;
  setCookie(request, reply, FLASH_COOKIE, '', 0);
  try {
    const parsed = JSON.parse(unseal(raw, request.server.appSecret, `web-flash:${request.webSession?.id ?? ''}`)) as {
      kind: string;
      data: T;
    };
    return parsed.kind === kind ? parsed.data : null;
  } catch {
    return null;
  }
}
