import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Services } from '../../api/src/services';
import type { Knex } from 'knex';
import { verifyWebhookSignature } from '#domain/webhooks/index';
import { deriveWebhookSecret } from '#domain/webhooks/secrets';
import type { DemoFair } from './demo-data';

/**
 * The demo's webhook receiver (docs/decisions/0176-demo-webhooks.md): `npm start` (development)
 * listens on a free loopback port inside its own process, subscribes the demo recruiter's team
 * (Acme Compilers) to it, verifies every delivery's signature as a real receiver must, and logs
 * one readable line per delivery — so a newcomer sees webhooks fire while the simulator makes and
 * accepts matches.
 */
export const DEMO_WEBHOOK_DESCRIPTION = 'Demo webhook receiver (npm start)';
export const DEMO_WEBHOOK_EVENTS = ['match.matched', 'match.accepted', 'interview.completed'] as const;

export interface DemoDelivery {
  eventId: string;
  type: string;
  subscriptionId: string;
  verified: boolean;
  line: string;
}

/** One line a human reads: what happened, by name, from the event's data. */
export function describeDemoDelivery(type: string, data: Record<string, unknown>): string {
  const role = typeof data.role_title === 'string' ? `"${data.role_title}"` : 'a job';
  switch (type) {
    case 'match.matched':
      return (
        `a match for ${role}${typeof data.seeker_headline === 'string' && data.seeker_headline ? ` (seeker: ${data.seeker_headline})` : ''} ` +
        `was made`
      );
    case 'match.accepted':
      return `both sides accepted the match for ${role}${data.recruiter_auto_accepted ? ' (the team auto-accepts)' : ''}`;
    case 'interview.completed':
      return (
        `the interview for ${role} ended (${String(data.ended_by ?? '?')}, ` +
        `${String(data.duration_seconds ?? '?')} s)`
      );
    case 'changelog.api':
      return `API changelog: ${String(data.title ?? '')}`;
    case 'webhook.test':
      return 'a test event';
    default:
      return 'an event';
  }
}

/**
 * A receiver on 127.0.0.1:<free port>. `secrets(subscriptionId)` gives the secrets that may sign
 * (the current one and, during a rotation, the previous): re-read at each delivery, so a rotation
 * in the web app is followed. Answers 204 (verified), 400 (bad signature), duplicates 200.
 */
export async function startDemoWebhookReceiver(opts: {
  secrets: (subscriptionId: string) => Promise<string[]>;
  log: {
    info: (obj: object, msg: string) => void;
    warn: (obj: object, msg: string) => void;
    debug: (obj: object, msg: string) => void;
  };
}): Promise<{ url: string; received: DemoDelivery[]; close: () => Promise<void> }> {
  const received: DemoDelivery[] = [];
  const seen = new Set<string>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      void (async () => {
        const raw = Buffer.concat(chunks);
        const subscriptionId = String(req.headers['svc-subscription-id'] ?? '');
        const header = req.headers['svc-signature'];
        let verified = false;
        try {
          const secrets = subscriptionId ? await opts.secrets(subscriptionId) : [];
          verified =
            secrets.length > 0 &&
            verifyWebhookSignature({
              payload: raw,
              header: typeof header === 'string' ? header : undefined,
              secret: secrets,
            });
        } catch {
          verified = false;
        }
        let event: { id?: string; type?: string; data?: Record<string, unknown> } = {};
        try {
          event = JSON.parse(raw.toString('utf8')) as typeof event;
        } catch {
          /* not JSON: reported below */
        }
        const eventId = event.id ?? '?';
        const type = event.type ?? String(req.headers['svc-event'] ?? '?');
        if (!verified) {
          opts.log.warn(
            { eventId, type, subscriptionId },
            `webhook ${type} ${eventId}: signature did NOT verify — refused (400)`,
          );
          res.writeHead(400).end('bad signature');
          return;
        }
        // At-least-once: a retry of a delivery we already took is answered 200 and not counted again.
        if (seen.has(eventId)) {
          opts.log.debug({ eventId, type }, `webhook ${type} ${eventId}: again (already received)`);
          res.writeHead(200).end();
          return;
        }
        seen.add(eventId);
        const line =
          `webhook ${type} received, signature verified: ` +
          `${describeDemoDelivery(type, event.data ?? {})} [${eventId}]`;
        received.push({ eventId, type, subscriptionId, verified, line });
        opts.log.info({ eventId, type, subscriptionId }, line);
        res.writeHead(204).end();
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jobfair-webhooks`,
    received,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** The secrets that may sign a subscription's deliveries now, re-derived as the worker does (master key + stored salts). */
export function demoWebhookSecrets(knex: Knex, masterKey: string): (subscriptionId: string) => Promise<string[]> {
  return async (id) => {
    const row = await knex('webhook_subscriptions')
      .where({ id })
      .first('id', 'secret_salt', 'previous_secret_salt', 'previous_secret_expires_at');
    if (!row) return [];
    const secrets = [deriveWebhookSecret(masterKey, row.id, row.secret_salt)];
    if (
      row.previous_secret_salt &&
      row.previous_secret_expires_at &&
      new Date(row.previous_secret_expires_at).getTime() > Date.now()
    )
      secrets.push(deriveWebhookSecret(masterKey, row.id, row.previous_secret_salt));
    return secrets;
  };
}

/**
 * Subscribes the demo recruiter's team to the receiver through the webhooks service (so its actor
 * workflow starts as for any subscription): found by its description and moved to this start's
 * port, or created; re-enabled if it was paused while no receiver listened (between two starts).
 */
export async function subscribeDemoWebhooks(
  services: Services,
  fair: Pick<DemoFair, 'events'>,
  url: string,
): Promise<{ id: string }> {
  const acme = fair.events[0];
  const owner = { kind: 'team' as const, teamId: acme.teamId };
  const existing = await services.deps.repos.webhooks
    .listForOwnerQuery(owner)
    .andWhere('description', DEMO_WEBHOOK_DESCRIPTION)
    .orderBy('created_at')
    .first();
  if (!existing) {
    const { row } = await services.webhooks.create(owner, acme.ownerId, {
      target_url: url,
      events: [...DEMO_WEBHOOK_EVENTS],
      description: DEMO_WEBHOOK_DESCRIPTION,
    });
    return { id: row.id };
  }
  await services.webhooks.update(owner, existing.id, {
    target_url: url,
    ...(existing.status !== 'active' ? { status: 'active' as const } : {}),
  });
  return { id: existing.id };
}
