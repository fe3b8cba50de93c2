import { dateArg, HELP, type OpsOptions } from './ops-arguments';
import type { OpsContext } from './ops-context';

/** `dead-letters`: webhook deliveries that gave up since then (default: the last 7 days), not yet replayed. */
export async function deadLetters(ctx: OpsContext, values: OpsOptions): Promise<void> {
  const since = dateArg('since', values.since, new Date(Date.now() - 7 * 24 * 3600 * 1000));
  const subs = values.webhook ? [values.webhook] : await subscriptionsWithDeadLetters(ctx, since);
  let n = 0;
  for (const sub of subs) {
    for (const d of await ctx.services.deps.repos.webhooks.listDeadLettersSince(sub, since, 10_000)) {
      n++;
      console.log(
        `${sub}\t${d.event_id}\t${d.event_type}\trun ${d.run}\t${d.attempts} attempts\tlast HTTP ` +
          `${d.last_http_status ?? d.last_error_kind ?? '-'}\tgave up ${d.finished_at?.toISOString()}`,
      );
    }
  }
  console.log(`${n} dead letter(s) since ${since.toISOString()}${values.webhook ? ` for ${values.webhook}` : ''}`);
}

/** `replay`: redeliver one dead letter (--delivery) or every one since a time; a dry run unless --execute. */
export async function replay(ctx: OpsContext, values: OpsOptions): Promise<void> {
  if (!values.webhook === !values.all) {
    console.error(`give --webhook whk_… or --all\n\n${HELP.replay}`);
    process.exit(2);
  }
  // --dry-run wins over --execute: `npm run webhooks:replay` is this command with --execute.
  const execute = values.execute === true && values['dry-run'] !== true;
  if (values.delivery !== undefined) return replayOne(ctx, values, execute);
  const since = dateArg('since', values.since);
  const subs = values.webhook ? [values.webhook] : await subscriptionsWithDeadLetters(ctx, since);
  let replayed = 0;
  let pending = 0;
  for (const sub of subs) {
    if (!execute) {
      const rows = await ctx.services.deps.repos.webhooks.listDeadLettersSince(sub, since, 10_000);
      for (const d of rows)
        console.log(`would replay ${sub}\t${d.event_id}\t${d.event_type}\trun ${d.run} → ${d.run + 1}`);
      pending += rows.length;
      continue;
    }
    const r = await ctx.services.webhooks.replaySince(null, sub, since);
    for (const x of r.replayed) console.log(`replaying ${sub}\t${x.eventId}\tas run ${x.run}`);
    for (const x of r.skipped) console.log(`skipped ${sub}\t${x}\t(a delivery run is open)`);
    replayed += r.replayed.length;
    if (r.more) console.log(`${sub}: more remain; run again`);
  }
  console.log(
    execute
      ? `${replayed} replayed`
      : `dry run: ${pending} dead letter(s) would be replayed; add --execute to replay them`,
  );
}

/** `replay --webhook whk_… --delivery dlv_…|evt_…`: that one dead letter. */
async function replayOne(ctx: OpsContext, values: OpsOptions, execute: boolean): Promise<void> {
  if (!values.webhook || values.since !== undefined) {
    console.error(`--delivery names one dead letter of one --webhook (no --since)\n\n${HELP.replay}`);
    process.exit(2);
  }
  if (execute) {
    const r = await ctx.services.webhooks.replayOne(null, values.webhook, values.delivery!);
    console.log(
      `replaying ${r.eventId} to ${values.webhook} as run ${r.run} (workflow webhook-delivery:${values.webhook}:${r.eventId})`,
    );
  } else {
    console.log(await describeReplayOne(ctx, values.webhook, values.delivery!));
  }
}

/** The dry run of `replay --delivery`: what a replay of that delivery would do (the checks replayOne makes on the delivery). */
async function describeReplayOne(ctx: OpsContext, webhookId: string, deliveryRef: string): Promise<string> {
  const repo = ctx.services.deps.repos.webhooks;
  const eventId = deliveryRef.startsWith('dlv_')
    ? (await repo.findAttempt(webhookId, deliveryRef))?.event_id
    : deliveryRef;
  const latest = eventId ? await repo.latestRun(webhookId, eventId) : undefined;
  if (!eventId || !latest) return `dry run: no delivery ${deliveryRef} to ${webhookId}`;
  if (latest.state !== 'dead_letter')
    return `dry run: the delivery of ${eventId} to ${webhookId} is ${latest.state}; only dead letters can be replayed`;
  return (
    `would replay ${webhookId}\t${eventId}\t${latest.event_type}\trun ${latest.run} → ` +
    `${latest.run + 1}\ndry run: 1 dead letter(s) would be replayed; add --execute to replay it`
  );
}

/** Subscriptions with a dead letter since then (the latest-run check is per subscription, in the repository). */
async function subscriptionsWithDeadLetters(ctx: OpsContext, since: Date): Promise<string[]> {
  const rows: Array<{ subscription_id: string }> = await ctx.services.deps
    .knex('webhook_deliveries')
    .where('state', 'dead_letter')
    .andWhere('finished_at', '>=', since)
    .distinct('subscription_id');
  return rows.map((r) => r.subscription_id);
}
