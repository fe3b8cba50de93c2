import type { Answer, OAuthContext } from './context';
import { loadOAuthLibrary, serverFor } from './library';
import { modelFor } from './request-model';

/** The token endpoint (code exchange and refresh): its answer in OAuth's own JSON (RFC 6749 §5.1, §5.2). */
export async function exchangeToken(
  ctx: OAuthContext,
  headers: Record<string, string | string[] | undefined>,
  body: Record<string, string>,
): Promise<Answer> {
  const lib = await loadOAuthLibrary();
  const flat: Record<string, string> = {};
  for (const [k, v] of Object.entries(headers)) if (v !== undefined) flat[k] = Array.isArray(v) ? v.join(', ') : v;
  const request = new lib.Request({ method: 'POST', headers: flat, query: {}, body });
  const response = new lib.Response();
  const resourceParam = body.resource;
  try {
    await serverFor(lib, ctx, modelFor(lib, ctx, { resourceParam })).token(request, response);
  } catch (err) {
    if (!(err instanceof lib.OAuthError)) throw err;
    if (err.code >= 500) throw (err as { inner?: Error }).inner ?? err;
  }
  return {
    status: response.status ?? 200,
    headers: { 'cache-control': 'no-store', pragma: 'no-cache' },
    body: response.body as Record<string, unknown>,
  };
}
