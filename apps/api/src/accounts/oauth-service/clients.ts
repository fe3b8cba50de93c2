import { z } from 'zod';
import { generateToken } from '#lib/tokens';
import { redirectUriProblem, resolveClientMetadata, type OAuthClient } from '../oauth-client-metadata';
import { GRANTS, type Answer, type OAuthContext } from './context';

export type ResolvedClient = { ok: true; client: OAuthClient } | { ok: false; message: string };

/**
 * The client a `client_id` names: a Client ID Metadata Document URL (fetched and checked) or the
 * id of a dynamically registered client.
 */
export async function resolveClient(ctx: OAuthContext, clientId: string): Promise<ResolvedClient> {
  if (/^https?:\/\//i.test(clientId))
    return resolveClientMetadata(clientId, {
      policy: ctx.policy,
      timeoutMs: Math.min(ctx.cfg.WEBHOOK_TIMEOUT_MS, 5000),
    });
  const row = await ctx.oauth.findClient(clientId);
  if (!row)
    return {
      ok: false,
      message: `client_id ${clientId} is neither a client metadata document URL nor a registered client`,
    };
  return {
    ok: true,
    client: {
      clientId: row.client_id,
      // A registered client has no origin of its own: the person sees where it sends them back.
      origin: new URL(row.redirect_uris[0]).origin,
      name: row.client_name,
      clientUri: row.client_uri,
      redirectUris: row.redirect_uris,
    },
  };
}

const registrationSchema = z
  .object({
    redirect_uris: z.array(z.string().max(2048)).min(1).max(20),
    client_name: z.string().trim().min(1).max(100).optional(),
    client_uri: z.string().url().max(2048).optional(),
    token_endpoint_auth_method: z.literal('none').optional(),
    grant_types: z.array(z.enum(['authorization_code', 'refresh_token'])).optional(),
    response_types: z.array(z.literal('code')).optional(),
  })
  .passthrough();

const refuse = (error: string, description: string): Answer => ({
  status: 400,
  headers: {},
  body: { error, error_description: description },
});

/** RFC 7591 dynamic registration of a public client (no secret, `none` authentication). */
export async function registerClient(ctx: OAuthContext, body: unknown): Promise<Answer> {
  const parsed = registrationSchema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const field = issue.path.join('.') || 'body';
    return refuse(
      field.startsWith('redirect_uris') ? 'invalid_redirect_uri' : 'invalid_client_metadata',
      `${field}: ${issue.message}`,
    );
  }
  for (const uri of parsed.data.redirect_uris) {
    const problem = redirectUriProblem(uri);
    if (problem) return refuse('invalid_redirect_uri', problem);
  }
  const row = await ctx.oauth.insertClient({
    client_id: generateToken('dcr_'),
    client_name: parsed.data.client_name ?? new URL(parsed.data.redirect_uris[0]).hostname,
    client_uri: parsed.data.client_uri ?? null,
    redirect_uris: parsed.data.redirect_uris,
  });
  return {
    status: 201,
    headers: { 'cache-control': 'no-store' },
    body: {
      client_id: row.client_id,
      client_id_issued_at: Math.floor(row.created_at.getTime() / 1000),
      client_name: row.client_name,
      ...(row.client_uri ? { client_uri: row.client_uri } : {}),
      redirect_uris: row.redirect_uris,
      grant_types: GRANTS,
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
  };
}
