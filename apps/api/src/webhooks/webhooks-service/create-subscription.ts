import { randomBytes } from 'node:crypto';
import type { WebhookOwner, WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import { operationHex, type OperationKey } from '#lib/operation-ids';
import { deriveWebhookSecret, hashWebhookSecret, newSecretSalt } from '#domain/webhooks/secrets';
import type { WebhooksServiceDeps } from './deps';
import { validateEvents, validateTarget } from './subscription-checks';
import { startActor } from './subscription-actor';

export interface CreateWebhookInput {
  target_url: string;
  events: string[];
  description?: string | null;
}

const newWebhookId = () => `whk_${randomBytes(12).toString('hex')}`;

export function subscriptionCreation(deps: WebhooksServiceDeps) {
  const repo = deps.repos.webhooks;
  return {
    /** Creates the subscription and its actor; the plain secret is returned here and never stored. */
    async create(
      owner: WebhookOwner,
      createdByUserId: string | null,
      input: CreateWebhookInput,
      op: OperationKey | null = null,
    ): Promise<{ row: WebhookSubscriptionRow; secret: string }> {
      const target = validateTarget(deps, input.target_url);
      const events = validateEvents(input.events);
      // With an Idempotency-Key the id and the salt derive from it: a retry after a crash re-derives
      // the same subscription and secret instead of creating a second one (decision 0160).
      const id = op ? `whk_${operationHex(op, 'webhook')}` : newWebhookId();
      const salt = op ? operationHex(op, 'webhook-secret', 16) : newSecretSalt();
      const secret = deriveWebhookSecret(deps.appSecret, id, salt);
      if (op) {
        const done = await repo.findSubscriptionForOwner(id, owner);
        if (done) {
          // The actor may be missing if the crash came between commit and answer: start it if so.
          await startActor(deps, done, 'USE_EXISTING');
          return {
            row: done,
            secret: done.secret_salt === salt ? secret : deriveWebhookSecret(deps.appSecret, id, done.secret_salt),
          };
        }
      }
      // The row and the actor appear together: if Temporal refuses the start, the insert is rolled back.
      const row = await deps.knex.transaction(async (trx) => {
        const inserted = await repo.insertSubscription(
          {
            id,
            owner_team_id: owner.kind === 'team' ? owner.teamId : null,
            owner_user_id: owner.kind === 'user' ? owner.userId : null,
            created_by_user_id: createdByUserId,
            target_url: target,
            events,
            description: input.description ?? null,
            secret_hash: hashWebhookSecret(secret),
            secret_salt: salt,
          },
          trx,
        );
        // A derived id may meet the actor of a run whose insert was rolled back (crash before commit).
        await startActor(deps, inserted, op ? 'USE_EXISTING' : 'FAIL');
        return inserted;
      });
      return { row, secret };
    },
  };
}
