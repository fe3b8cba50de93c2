import type { WebhookOwner, WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import { operationHex, type OperationKey } from '#lib/operation-ids';
import { deriveWebhookSecret, hashWebhookSecret, newSecretSalt } from '#domain/webhooks/secrets';
import {
  deleteSubscriptionUpdate,
  disableSubscriptionUpdate,
  resumeSubscriptionUpdate,
} from '#workflows/webhooks/contract';
import type { Page } from '../../plugins/pagination';
import type { WebhooksServiceDeps } from './deps';
import { loadSubscription, validateEvents, validateTarget } from './subscription-checks';
import { messageActor, startActor } from './subscription-actor';

export interface UpdateWebhookInput {
  target_url?: string;
  events?: string[];
  description?: string | null;
  status?: 'active' | 'disabled';
}

/** Reading, changing, rotating the secret of and deleting a subscription; repairing its actor. */
export function subscriptionSettings(deps: WebhooksServiceDeps) {
  const repo = deps.repos.webhooks;
  const load = (owner: WebhookOwner | null, id: string) => loadSubscription(deps, owner, id);
  return {
    async list(owner: WebhookOwner, q: { limit: number; cursor?: string }): Promise<Page<WebhookSubscriptionRow>> {
      if (!deps.paginator) throw new Error('webhooks service built without a paginator');
      return deps.paginator.page<WebhookSubscriptionRow>(repo.listForOwnerQuery(owner), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { webhooks: owner },
      });
    },

    get: load,

    /** Settings change directly; `status` goes through the actor (resume resets the failure counter). */
    async update(owner: WebhookOwner, id: string, patch: UpdateWebhookInput): Promise<WebhookSubscriptionRow> {
      const row = await load(owner, id);
      const settings: { target_url?: string; events?: string[]; description?: string | null } = {};
      if (patch.target_url !== undefined) settings.target_url = validateTarget(deps, patch.target_url);
      if (patch.events !== undefined) settings.events = validateEvents(patch.events);
      if (patch.description !== undefined) settings.description = patch.description;
      await repo.updateSettings(row.id, settings);
      if (patch.status === 'active') await messageActor(deps, row, resumeSubscriptionUpdate);
      if (patch.status === 'disabled') await messageActor(deps, row, disableSubscriptionUpdate);
      return load(owner, id);
    },

    /** Stops future deliveries; waiting retries end as cancelled (recorded in the delivery log). */
    async remove(owner: WebhookOwner, id: string): Promise<{ cancelledDeliveries: number }> {
      const row = await load(owner, id);
      const r = await messageActor(deps, row, deleteSubscriptionUpdate);
      return { cancelledDeliveries: r.cancelledDeliveries };
    },

    /** New secret (returned once); the previous one keeps signing (a second v1=) for WEBHOOK_SECRET_OVERLAP_MS. */
    async rotateSecret(
      owner: WebhookOwner,
      id: string,
      op: OperationKey | null = null,
    ): Promise<{ row: WebhookSubscriptionRow; secret: string; previousSecretExpiresAt: Date }> {
      const row = await load(owner, id);
      // Keyed: the new salt derives from the key, so a retry after a crash sees its rotation already
      // applied and answers with it, instead of rotating twice and retiring the caller's current secret.
      const salt = op ? operationHex(op, `rotate:${row.id}`, 16) : newSecretSalt();
      const secret = deriveWebhookSecret(deps.appSecret, row.id, salt);
      if (row.secret_salt === salt && row.previous_secret_expires_at)
        return { row, secret, previousSecretExpiresAt: row.previous_secret_expires_at };
      const previousSecretExpiresAt = new Date(Date.now() + deps.config.WEBHOOK_SECRET_OVERLAP_MS);
      await repo.rotateSecret(row.id, {
        secret_hash: hashWebhookSecret(secret),
        secret_salt: salt,
        previous_secret_salt: row.secret_salt,
        previous_secret_expires_at: previousSecretExpiresAt,
      });
      return { row: await load(owner, id), secret, previousSecretExpiresAt };
    },

    /**
     * Starts the subscription's actor from its row if no run is open (`ops reconcile --fix`: the
     * workflow went missing — terminated, or lost with a dev server's state); a running one is kept.
     */
    async ensureActor(id: string): Promise<void> {
      await startActor(deps, await load(null, id), 'USE_EXISTING');
    },
  };
}
