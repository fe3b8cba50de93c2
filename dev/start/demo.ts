import { Runtime } from '@temporalio/worker';
import { appSecret, type Config } from '#lib/config';
import { createKnex } from '#db/knex';
import { createLogger } from '#lib/logger';
import { openDemoEvents } from '#apps/demo/src/demo-data';
import { startDemoSimulator, stopDemoSimulation } from '#apps/demo/src/demo-simulator';
import { demoWebhookSecrets, startDemoWebhookReceiver, subscribeDemoWebhooks } from '#apps/demo/src/demo-webhooks';
import type { StartContext } from './context';

/** The demo events go live (the worker polls now) and the demo's webhook receiver is subscribed. */
export async function openDemo(ctx: StartContext): Promise<void> {
  const { config, seeding, demo, supervisor } = ctx;
  try {
    await openDemoEvents(seeding.services, demo);
    if (ctx.demoWebhooks) {
      const hookKnex = createKnex(ctx.infra.databaseUrl, 1);
      const receiver = await startDemoWebhookReceiver({
        secrets: demoWebhookSecrets(hookKnex, appSecret(config)),
        log: createLogger(config, 'demo-webhooks'),
      });
      ctx.receiver = receiver;
      supervisor.beforeStop.push(async () => {
        await receiver.close();
        await hookKnex.destroy();
      });
      await subscribeDemoWebhooks(seeding.services, demo, receiver.url);
    }
  } finally {
    await seeding.close();
  }
}

/** The simulator's own words ("Margaret Hamilton accepted …") at info; the SDK's chatter at debug. */
function installSdkLogger(config: Config): void {
  const pino = createLogger(config, 'demo');
  const levelOf = (level: string, meta?: Record<string, unknown>) => {
    const l = level.toLowerCase() as 'trace' | 'debug' | 'info' | 'warn' | 'error';
    return l === 'info' && meta?.sdkComponent !== 'activity' && meta?.sdkComponent !== 'workflow' ? 'debug' : l;
  };
  Runtime.install({
    logger: {
      log: (level, message, meta) => pino[levelOf(level, meta)](meta ?? {}, message),
      trace: (m, meta) => pino.trace(meta ?? {}, m),
      debug: (m, meta) => pino.debug(meta ?? {}, m),
      info: (m, meta) => pino[levelOf('INFO', meta)](meta ?? {}, m),
      warn: (m, meta) => pino.warn(meta ?? {}, m),
      error: (m, meta) => pino.error(meta ?? {}, m),
    },
  });
}

/** DEMO_SIMULATION=on: simulated seekers join and recruiters accept; off: a running simulation is stopped. */
export async function startSimulator(ctx: StartContext): Promise<void> {
  const { config, infra } = ctx;
  if (config.DEMO_SIMULATION !== 'on') return stopDemoSimulation(ctx.temporal.client, config);
  installSdkLogger(config);
  const simKnex = createKnex(infra.databaseUrl, 2);
  const simulator = await startDemoSimulator({ config, knex: simKnex, address: infra.temporalAddress });
  ctx.simulator = simulator;
  ctx.supervisor.beforeStop.push(async () => {
    await simulator.stop();
    await simKnex.destroy();
  });
}
