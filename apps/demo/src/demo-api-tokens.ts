import type { Services } from '../../api/src/services';
import { appSecret, type Config } from '#lib/config';
import { hashToken } from '#lib/tokens';
import { createDemoTokenStore, type StoredDemoToken } from '#activities/demo/demo-tokens';

/** Demo tokens expire after 30 days; one with less than a day left is replaced at the next start. */
export const DEMO_TOKEN_TTL_MS = 30 * 24 * 60 * 60 * 1000;
const RENEW_BEFORE_MS = 24 * 60 * 60 * 1000;

/**
 * The demo users' API tokens: the sealed one (DATA_DIR) reused while it is valid, otherwise a new
 * one minted (30 days, preset scopes). `save` seals the tokens handed out, and only those.
 */
export function createDemoTokenIssuer(
  services: Services,
  config: Pick<Config, 'DATA_DIR' | 'APP_SECRET' | 'NODE_ENV'>,
) {
  const store = createDemoTokenStore(config.DATA_DIR, appSecret(config));
  const stored = store.read();
  const fresh: Record<string, StoredDemoToken> = {};
  const tokenFor = async (email: string, userId: string, name: string, scopes: readonly string[]) => {
    const old = stored[email];
    if (old) {
      const row = await services.deps.repos.tokens.findByHash(hashToken(old.token));
      if (
        row &&
        row.user_id === userId &&
        !row.revoked_at &&
        row.expires_at &&
        row.expires_at.getTime() - Date.now() > RENEW_BEFORE_MS
      ) {
        fresh[email] = old;
        return old;
      }
    }
    const expiresAt = new Date(Date.now() + DEMO_TOKEN_TTL_MS);
    const { token } = await services.accounts.tokens.mint(userId, { name, scopes, expiresAt });
    fresh[email] = { token, expiresAt: expiresAt.toISOString() };
    return fresh[email];
  };
  return { tokenFor, save: () => store.write(fresh) };
}
