import type { WebhookOwner } from '#db/webhooks/webhooks-repository';
import type { UserRole } from '#db/accounts/accounts-repository';
import type { WebhooksServiceDeps } from './webhooks-service/deps';
import { subscriptionCreation } from './webhooks-service/create-subscription';
import { subscriptionSettings } from './webhooks-service/subscription-settings';
import { testDelivery } from './webhooks-service/send-test';
import { deliveryLog } from './webhooks-service/delivery-log';

export type { WebhookOwner };
export type { CreateWebhookInput } from './webhooks-service/create-subscription';
export type { UpdateWebhookInput } from './webhooks-service/subscription-settings';
export { MAX_REPLAY_BATCH } from './webhooks-service/delivery-log';

/** Recruiters with a team own subscriptions as their team; everyone else as themselves. */
export function webhookOwnerOf(auth: { userId: string; role: UserRole; teamId: string | null }): WebhookOwner {
  return auth.role === 'recruiter' && auth.teamId
    ? { kind: 'team', teamId: auth.teamId }
    : { kind: 'user', userId: auth.userId };
}

/**
 * Use-cases of webhook subscriptions, shared by the REST routes, the web page, the agent tool and
 * the operator CLI (`owner: null` = operator, any subscription). Settings are written here; the
 * lifecycle (status, failure counter) only by messaging the subscription actor. One module per
 * use-case group in `webhooks-service/`.
 */
export function createWebhooksService(deps: WebhooksServiceDeps) {
  return {
    ...subscriptionCreation(deps),
    ...subscriptionSettings(deps),
    ...testDelivery(deps),
    ...deliveryLog(deps),
  };
}
export type WebhooksService = ReturnType<typeof createWebhooksService>;
