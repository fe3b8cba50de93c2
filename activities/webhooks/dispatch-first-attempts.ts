import { Context } from '@temporalio/activity';
import type { DomainEventRow, WebhookDeliveryRow, WebhookSubscriptionRow } from '#db/webhooks/webhooks-repository';
import { buildEnvelope, signatureHeaders } from '#domain/webhooks/signing';
import type { WebhookDeliveryState } from '#workflows/webhooks/contract';
import { domainMetrics } from '#lib/metrics';
import { MAX_WEBHOOK_BODY_BYTES, signingSecretsOf } from './delivery-activities';
import { RECORD_AFTER_SEND_MS, endWithoutRequest, keyOf, recordAfterSend } from './delivery-records';
import { CONCURRENCY, firstAttemptId, type Outcome, type WebhookDispatcherDeps } from './dispatch-batch';

/** The dispatcher's first attempts of one claimed batch: up to CONCURRENCY POSTs at once, each recorded. */
export function dispatchFirstAttempts(deps: WebhookDispatcherDeps) {
  const repo = deps.webhooksRepository;

  /** One claimed delivery: decide, POST, record (state and attempt in one transaction; `first_attempt_due_at` stays until the batch is done). */
  const attemptOne = async (
    row: WebhookDeliveryRow,
    sub: WebhookSubscriptionRow | undefined,
    event: DomainEventRow | undefined,
  ): Promise<Outcome> => {
    const id = firstAttemptId(row);
    if (row.state !== 'pending') {
      // Recorded by an earlier try of this batch that did not finish: answer from the record, do not POST again.
      const a = await repo.findAttempt(row.subscription_id, id);
      const kind =
        row.state === 'delivered'
          ? 'delivered'
          : row.state === 'retrying' || row.state === 'dead_letter'
            ? 'failed'
            : 'not_sent';
      return {
        row,
        kind,
        signal:
          a && a.attempt !== null
            ? { deliveryId: a.id, eventId: row.event_id, ok: a.outcome === 'success', atMs: a.attempted_at.getTime() }
            : null,
        lastOutcome: a?.http_status ? `HTTP ${a.http_status}` : (a?.error_kind ?? 'a failure'),
      };
    }
    const k = { webhookId: row.subscription_id, eventId: row.event_id, run: row.run };
    if (!sub || !event) {
      await deps.knex.transaction((trx) =>
        endWithoutRequest(repo, trx, k, row.event_type, id, 'cancelled', 'delivery_input_missing'),
      );
      return { row: { ...row, state: 'cancelled' }, kind: 'not_sent', signal: null };
    }
    const body = buildEnvelope({
      id: event.id,
      type: event.type,
      createdAtMs: event.created_at.getTime(),
      data: event.data,
    });
    const bodyBytes = Buffer.byteLength(body, 'utf8');
    const end: { state: WebhookDeliveryState; errorKind: string } | null =
      sub.status === 'deleted' || sub.status === 'disabled'
        ? { state: 'cancelled', errorKind: `subscription_${sub.status}` }
        : sub.status === 'paused'
          ? { state: 'not_accepted_paused', errorKind: 'not_accepted_paused' }
          : bodyBytes > MAX_WEBHOOK_BODY_BYTES
            ? { state: 'oversize', errorKind: 'oversize' }
            : null;
    if (end) {
      await deps.knex.transaction(async (trx) => {
        await endWithoutRequest(repo, trx, k, row.event_type, id, end.state, end.errorKind);
        await repo.updateDelivery(keyOf(k), { body_bytes: bodyBytes }, trx);
      });
      return { row: { ...row, state: end.state }, kind: 'not_sent', signal: null };
    }
    const t = Math.floor(Date.now() / 1000);
    const attemptedAt = new Date();
    const result = await deps.httpClient.post(sub.target_url, body, {
      'content-type': 'application/json',
      'user-agent': 'JobFair-Webhooks/1.0',
      ...signatureHeaders(signingSecretsOf(deps.appSecret, sub), event.id, t, body),
      'svc-event': event.type,
      'svc-delivery-id': id,
      'svc-subscription-id': sub.id,
    });
    const retries = deps.config.WEBHOOK_RETRY_SCHEDULE_MS.length;
    const state: WebhookDeliveryState = result.ok ? 'delivered' : retries === 0 ? 'dead_letter' : 'retrying';
    // Within the claim's lease (WEBHOOK_TIMEOUT_MS + 60 s): no other claim can take the row meanwhile.
    await recordAfterSend(
      () =>
        deps.knex.transaction(async (trx) => {
          await repo.insertAttempt(
            {
              id,
              subscription_id: sub.id,
              event_id: event.id,
              run: row.run,
              event_type: event.type,
              attempt: 1,
              outcome: result.ok ? 'success' : 'failure',
              http_status: result.httpStatus,
              error_kind: result.ok ? null : result.errorKind,
              latency_ms: result.latencyMs,
              response_snippet: result.responseSnippet,
              attempted_at: attemptedAt,
            },
            trx,
          );
          // Only a row still waiting for this attempt moves (a disable or delete may have cancelled it meanwhile).
          await repo.recordFirstAttemptIfPending(
            keyOf(k),
            {
              state,
              attempts: 1,
              body_bytes: bodyBytes,
              last_http_status: result.httpStatus,
              last_error_kind: result.ok ? null : result.errorKind,
              last_attempt_at: attemptedAt,
              next_attempt_at:
                state === 'retrying'
                  ? new Date(attemptedAt.getTime() + deps.config.WEBHOOK_RETRY_SCHEDULE_MS[0])
                  : null,
              finished_at: state === 'retrying' ? null : new Date(),
            },
            trx,
          );
        }),
      {
        recorded: async () => Boolean(await repo.findAttempt(sub.id, id)),
        untilMs: Date.now() + RECORD_AFTER_SEND_MS,
        heartbeat: () => Context.current().heartbeat(),
      },
    );
    domainMetrics.webhookDeliveries.inc({ outcome: state, attempt: 'first' });
    return {
      row: { ...row, state },
      kind: result.ok ? 'delivered' : 'failed',
      signal: { deliveryId: id, eventId: event.id, ok: result.ok, atMs: attemptedAt.getTime() },
      lastOutcome: result.httpStatus ? `HTTP ${result.httpStatus}` : (result.errorKind ?? 'a failure'),
    };
  };

  /**
   * One claimed batch's attempts (POST and record each). What follows — the signals, the retry
   * workflows, taking the rows out of the queue — is `finishBatch`, which runs while the next batch
   * is claimed (decision 0240).
   */
  const attemptBatch = async (rows: WebhookDeliveryRow[]) => {
    const [subs, events] = await Promise.all([
      repo.findSubscriptionsByIds([...new Set(rows.map((r) => r.subscription_id))]),
      repo.findEventsByIds([...new Set(rows.map((r) => r.event_id))]),
    ]);
    const subById = new Map(subs.map((s) => [s.id, s]));
    const eventById = new Map(events.map((e) => [e.id, e]));
    const outcomes: Outcome[] = new Array(rows.length);
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(CONCURRENCY, rows.length) }, async () => {
        while (next < rows.length) {
          const i = next++;
          outcomes[i] = await attemptOne(
            rows[i],
            subById.get(rows[i].subscription_id),
            eventById.get(rows[i].event_id),
          );
          Context.current().heartbeat();
        }
      }),
    );
    return { outcomes, subById };
  };

  return { attemptBatch };
}
