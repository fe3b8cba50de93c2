import { parseArgs } from 'node:util';
import { loadConfig } from '#lib/config';
import { openServices } from './services';
import { SCOPES } from '#lib/scopes';
import { AppError } from '#lib/errors';

/**
 * `npm run token:create -- --email E --name N --scopes a,b [--expires-in-days D]`
 * Mints a personal access token for an existing user and prints it once.
 */
async function main() {
  const { values } = parseArgs({
    options: {
      email: { type: 'string' },
      name: { type: 'string' },
      scopes: { type: 'string' },
      'expires-in-days': { type: 'string' },
    },
  });
  if (!values.email || !values.name || !values.scopes) {
    console.error(
      `usage: npm run token:create -- --email E --name N --scopes ${SCOPES.slice(0, 2).join(',')}|all ` +
        `[--expires-in-days D]`,
    );
    process.exit(2);
  }
  const config = loadConfig();
  const { services, close } = openServices(config, { poolMax: 1 });
  try {
    const user = await services.deps.repos.accounts.findUserByEmail(values.email);
    if (!user) {
      console.error(`no user with e-mail ${values.email}`);
      process.exitCode = 1;
      return;
    }
    const scopes = values.scopes === 'all' ? [...SCOPES] : values.scopes.split(',').map((s) => s.trim());
    const days = values['expires-in-days'] ? Number(values['expires-in-days']) : null;
    if (days !== null && !(days > 0))
      throw new AppError(400, 'VALIDATION', '--expires-in-days must be a positive number');
    const { token, row } = await services.accounts.tokens.mint(user.id, {
      name: values.name,
      scopes,
      expiresAt: days ? new Date(Date.now() + days * 86_400_000) : null,
    });
    console.log(token);
    console.error(
      `token ${row.id} "${row.name}" for ${user.email}, scopes ${row.scopes.join(' ')}${row.expires_at ? `, expires ${row.expires_at.toISOString()}` : ', no expiry'} ` +
        `— shown once, store it now`,
    );
  } finally {
    await close();
  }
}

main().catch((err) => {
  console.error(
    err instanceof AppError && err.details
      ? `${err.message}: ${JSON.stringify(err.details)}`
      : err instanceof Error
        ? err.message
        : err,
  );
  process.exit(1);
});
