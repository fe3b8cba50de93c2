import type { WebhookOwner, WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import { ConflictError, NotFoundError, ValidationError } from '#lib/errors';
import { checkTargetUrl } from '#lib/outbound-http/address-policy';
import { isWebhookEventType } from '#workflows/webhooks/contract';
import type { WebhooksServiceDeps } from './deps';

/** The target URL as stored, or 400 naming `body.target_url` (the outbound client's address policy). */
export function validateTarget(deps: WebhooksServiceDeps, url: string): string {
  const check = checkTargetUrl(url, { allowLoopback: deps.config.OUTBOUND_HTTP_ALLOW_LOOPBACK });
  if (!check.ok) throw new ValidationError(check.message, [{ path: 'body.target_url', message: check.message }]);
  return check.url.toString();
}

/** The event types, each once, or 400 naming the unknown ones. */
export function validateEvents(events: string[]): string[] {
  const unknown = events.filter((e) => !isWebhookEventType(e));
  if (unknown.length > 0) {
    throw new ValidationError(
      `Unknown event type ${unknown.map((u) => `'${u}'`).join(', ')}`,
      unknown.map((u) => ({ path: 'body.events', message: `unknown event type '${u}'` })),
    );
  }
  return [...new Set(events)];
}

/** The owner's subscription (`owner: null` = operator, any subscription); a deleted one is 404. */
export async function loadSubscription(
  deps: WebhooksServiceDeps,
  owner: WebhookOwner | null,
  id: string,
): Promise<WebhookSubscriptionRow> {
  const repo = deps.repos.webhooks;
  const row = owner ? await repo.findSubscriptionForOwner(id, owner) : await repo.findSubscriptionById(id);
  if (!row || row.status === 'deleted') throw new NotFoundError('webhook', id);
  return row;
}

/** Replays need an active subscription. */
export function requireActive(row: WebhookSubscriptionRow): void {
  if (row.status !== 'active') {
    throw new ConflictError(
      'WEBHOOK_NOT_ACTIVE',
      `webhook ${row.id} is ${row.status}; re-enable it (PATCH status=active) before replaying`,
      { status: row.status },
    );
  }
}
