import { createKnex } from '#db/knex';
import { createLogger } from '#lib/logger';
import { openServices } from '#apps/ops/src/services';
import { openDemoEvents, seedDemoData } from '#apps/demo/src/demo-data';
import { demoWebhookSecrets, startDemoWebhookReceiver, subscribeDemoWebhooks } from '#apps/demo/src/demo-webhooks';
import type { ClusterContext } from './context';

/** 4. The demo fair, seeded through the services as npm start does; its events go live once workers poll. */
export async function seedDemo(ctx: ClusterContext): Promise<void> {
  if (!(ctx.opts.demo ?? true)) return;
  const opened = openServices(ctx.config, { databaseUrl: ctx.databaseUrl, temporalAddress: ctx.temporalAddress });
  // Closed once: after the demo is set up, or by stop() if start-up ends before that.
  let closing: Promise<void> | null = null;
  const seeding = { services: opened.services, close: () => (closing ??= opened.close()) };
  ctx.seeding = seeding;
  ctx.supervisor.addStop('the demo seeding connections', seeding.close);
  ctx.demoFair = await seedDemoData(seeding.services, ctx.config);
}

/** 8. The demo events go live (workers poll now) and its webhook receiver is subscribed. */
export async function openDemo(ctx: ClusterContext): Promise<void> {
  const { seeding, demoFair } = ctx;
  if (!seeding || !demoFair) return;
  try {
    await openDemoEvents(seeding.services, demoFair);
    const hookKnex = createKnex(ctx.databaseUrl, 1);
    const receiver = await startDemoWebhookReceiver({
      secrets: demoWebhookSecrets(hookKnex, ctx.env.APP_SECRET),
      log: createLogger({ ...ctx.config, LOG_FORMAT: 'auto' }, 'demo-webhooks'),
    });
    ctx.supervisor.addStop('the demo webhook receiver', async () => {
      await receiver.close();
      await hookKnex.destroy();
    });
    await subscribeDemoWebhooks(seeding.services, demoFair, receiver.url);
    ctx.demo = { ...demoFair, receiver };
  } finally {
    await seeding.close();
  }
}
