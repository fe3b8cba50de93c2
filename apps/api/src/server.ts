// First: tracing patches `pg` and `http` as they are required (decision 0263).
import { tracing } from './instrument';
import { loadConfig } from '#lib/config';
import { buildApp } from './app';
import { exitWithParent } from '#lib/supervision';

/** Process shell of the API: config, listen, close cleanly on SIGINT/SIGTERM. */
async function main() {
  const config = loadConfig();
  const app = await buildApp({ config });
  // The log names the public address (the one the start banner prints and cookies are set for),
  // with the socket it is bound to beside it: people copy the first URL they see.
  await app.listen({
    host: config.HOST,
    port: config.PORT,
    listenTextResolver: (address) => `API listening: open ${config.publicBaseUrl}/ (bound to ${address})`,
  });
  let closing = false;
  const close = (reason: string) => {
    if (closing) return;
    closing = true;
    app.log.info({ reason }, 'API shutting down');
    app
      .close()
      // Spans still buffered are exported before the process goes.
      .then(() => tracing?.shutdown())
      .then(
        () => process.exit(0),
        () => process.exit(1),
      );
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => close(signal));
  exitWithParent(() => close('supervisor gone'));
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
