import { Client } from '@temporalio/client';
import { loadConfig, type Config } from '#lib/config';
import { AppError } from '#lib/errors';
import { lazyClosable } from '#lib/temporal-connection';
import { openServices, scriptTemporalAddress } from './services';
import { describeDrift, reconcile, why, type OpsContext } from './ops-commands';
import { HELP, dateArg, parseOptions, type OpsOptions } from './ops-arguments';
import { retentionReport } from './retention-report';
import { deadLetters, replay } from './webhook-replay-commands';

type Command = (ctx: OpsContext, values: OpsOptions, positionals: string[], config: Config) => Promise<void>;

/**
 * `npm run ops -- <command>`: the operator's chair. Uses DATABASE_URL and TEMPORAL_ADDRESS
 * (defaults: the embedded PostgreSQL and dev server of `npm start`); `why` and `reconcile` query
 * running workflows, so a worker must be running (it answers queries).
 * The commands by name; their usage is HELP (ops-arguments.ts).
 */
const COMMANDS: Record<string, Command> = {
  async why(ctx, _values, positionals) {
    if (positionals.length !== 1) {
      console.error(HELP.why);
      process.exit(2);
    }
    for (const line of await why(ctx, positionals[0])) console.log(line);
  },
  'dead-letters': deadLetters,
  replay,
  async retention(ctx, _values, _positionals, config) {
    for (const line of await retentionReport(ctx, config)) console.log(line);
  },
  async reconcile(ctx, values) {
    const since = values.since ? dateArg('since', values.since) : undefined;
    const drift = await reconcile(ctx, { fix: values.fix === true, ...(since ? { since } : {}) });
    for (const d of drift) console.log(describeDrift(d));
    console.log(
      drift.length
        ? `${drift.length} drift(s)${values.fix ? '' : '; --fix repairs matches, queue entries and webhook subscriptions from their workflows'}`
        : 'no drift: every projection matches its workflow',
    );
    if (drift.some((d) => !d.fixed)) process.exitCode = 1;
  },
};

async function main() {
  const [command = '', ...rest] = process.argv.slice(2);
  if (command === '--help' || command === '-h' || command === 'help' || command === '') {
    console.log(HELP['']);
    process.exit(command ? 0 : 2);
  }
  if (!(command in HELP)) {
    console.error(`unknown command: ${command}\n\n${HELP['']}`);
    process.exit(2);
  }
  const { values, positionals } = parseOptions(command, rest);
  if (values.help) {
    console.log(HELP[command]);
    return;
  }

  const config = loadConfig();
  const { services, close } = openServices(config);
  const temporal = lazyClosable({ address: scriptTemporalAddress(config) });
  const ctx: OpsContext = {
    services,
    temporal: new Client({ connection: temporal.connection, namespace: config.TEMPORAL_NAMESPACE }),
  };
  try {
    await COMMANDS[command](ctx, values, positionals, config);
  } finally {
    await temporal.close();
    await close();
  }
}

main().catch((err) => {
  console.error(err instanceof AppError ? `${err.code}: ${err.message}` : err instanceof Error ? err.message : err);
  process.exit(1);
});
