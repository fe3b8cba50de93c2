import { z } from 'zod';
import type { AddressPolicy } from '#lib/outbound-http/address-policy';
import { safeGet, type Resolver } from '#lib/outbound-http/http-client';

/** A client metadata document larger than this is refused (the draft suggests servers cap it; 5 KB is its example). */
export const CLIENT_METADATA_MAX_BYTES = 5 * 1024;

/** What the consent page shows and the authorization endpoint checks about an OAuth client. */
export interface OAuthClient {
  clientId: string;
  /** The origin of the client_id URL: who the person is trusting, shown beside the name. */
  origin: string;
  name: string;
  clientUri: string | null;
  redirectUris: string[];
}

export type ClientMetadataResult = { ok: true; client: OAuthClient } | { ok: false; message: string };

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** https, or http to a loopback host (a native app's local callback, RFC 8252 §7.3); never a fragment. */
export function redirectUriProblem(raw: string): string | null {
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return `redirect_uri ${raw} is not an absolute URL`;
  }
  if (u.hash) return `redirect_uri ${raw} must not contain a fragment`;
  if (u.username || u.password) return `redirect_uri ${raw} must not contain credentials`;
  if (u.protocol === 'https:') return null;
  if (u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname)) return null;
  return `redirect_uri ${raw} must use https: (or http: to a loopback host)`;
}

const documentSchema = z.object({
  client_id: z.string(),
  client_name: z.string().trim().min(1).max(100).optional(),
  client_uri: z.string().url().max(2048).optional(),
  redirect_uris: z.array(z.string().max(2048)).min(1).max(20),
  token_endpoint_auth_method: z.literal('none').optional(),
  grant_types: z.array(z.string()).optional(),
  response_types: z.array(z.string()).optional(),
  // A public client: a document that carries a secret is not a metadata document we accept.
  client_secret: z.undefined({ message: 'must not carry a client_secret' }).optional(),
});

/**
 * The client_id URL rules of the Client ID Metadata Document draft: `https:` (or `http:` to
 * loopback when the SSRF policy allows it, for development), a path, no fragment, no
 * credentials, no `.` or `..` segments.
 */
export function clientIdProblem(clientId: string, policy: AddressPolicy): string | null {
  let u: URL;
  try {
    u = new URL(clientId);
  } catch {
    return 'client_id must be the https URL of a client metadata document';
  }
  const loopbackDev = policy.allowLoopback && u.protocol === 'http:' && LOOPBACK_HOSTS.has(u.hostname);
  if (u.protocol !== 'https:' && !loopbackDev) return 'client_id must be an https URL';
  if (u.hash || clientId.includes('#')) return 'client_id must not contain a fragment';
  if (u.username || u.password) return 'client_id must not contain credentials';
  if (u.pathname === '/' || u.pathname === '') return 'client_id must have a path';
  const raw = clientId.slice(clientId.indexOf('//') + 2);
  if (raw.split(/[/?]/).some((seg) => seg === '.' || seg === '..'))
    return 'client_id must not contain . or .. path segments';
  return null;
}

/**
 * Resolves a Client ID Metadata Document: fetched from the client_id URL through the outbound
 * HTTP client's SSRF guard (no private, link-local or metadata addresses at connect time; no redirects; at most
 * CLIENT_METADATA_MAX_BYTES), parsed, and checked: its `client_id` equals the URL exactly, it is a
 * public client (no secret, `none` authentication) with https or loopback redirect URIs.
 */
export async function resolveClientMetadata(
  clientId: string,
  opts: { policy: AddressPolicy; timeoutMs: number; resolve?: Resolver },
): Promise<ClientMetadataResult> {
  const problem = clientIdProblem(clientId, opts.policy);
  if (problem) return { ok: false, message: problem };
  const got = await safeGet(clientId, {
    policy: opts.policy,
    timeoutMs: opts.timeoutMs,
    maxBytes: CLIENT_METADATA_MAX_BYTES,
    ...(opts.resolve ? { resolve: opts.resolve } : {}),
  });
  if (!got.ok) return { ok: false, message: `the client metadata document could not be fetched: ${got.errorMessage}` };
  let json: unknown;
  try {
    json = JSON.parse(got.body);
  } catch {
    return { ok: false, message: 'the client metadata document is not JSON' };
  }
  const parsed = documentSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      message: `the client metadata document is invalid: ${issue.path.join('.') || 'document'}: ${issue.message}`,
    };
  }
  const doc = parsed.data;
  if (doc.client_id !== clientId)
    return { ok: false, message: 'the client metadata document names another client_id than its URL' };
  for (const uri of doc.redirect_uris) {
    const p = redirectUriProblem(uri);
    if (p) return { ok: false, message: p };
  }
  const origin = new URL(clientId).origin;
  return {
    ok: true,
    client: {
      clientId,
      origin,
      name: doc.client_name ?? new URL(clientId).hostname,
      clientUri: doc.client_uri ?? null,
      redirectUris: doc.redirect_uris,
    },
  };
}
