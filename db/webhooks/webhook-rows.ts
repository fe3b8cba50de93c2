import type {
  AttemptSummary,
  WebhookDeliverySource,
  WebhookDeliveryState,
  WebhookSubscriptionStatus,
  WebhookAttemptOutcome,
} from '#workflows/webhooks/contract';

// The rows of the webhooks tables and the keys the repository modules share.

export type WebhookOwner = { kind: 'team'; teamId: string } | { kind: 'user'; userId: string };

export interface WebhookSubscriptionRow {
  id: string;
  owner_team_id: string | null;
  owner_user_id: string | null;
  created_by_user_id: string | null;
  target_url: string;
  events: string[];
  description: string | null;
  status: WebhookSubscriptionStatus;
  consecutive_failures: number;
  paused_at: Date | null;
  disabled_at: Date | null;
  deleted_at: Date | null;
  secret_hash: string;
  secret_salt: string;
  previous_secret_salt: string | null;
  previous_secret_expires_at: Date | null;
  secret_rotated_at: Date | null;
  created_at: Date;
  updated_at: Date;
}

export interface WebhookDeliveryRow {
  subscription_id: string;
  event_id: string;
  run: number;
  event_type: string;
  source: WebhookDeliverySource;
  state: WebhookDeliveryState;
  attempts: number;
  body_bytes: number | null;
  last_http_status: number | null;
  last_error_kind: string | null;
  last_attempt_at: Date | null;
  next_attempt_at: Date | null;
  finished_at: Date | null;
  created_at: Date;
  updated_at: Date;
  /** Waiting for the dispatcher's first attempt (decision 0195); null once it is recorded. */
  first_attempt_due_at?: Date | null;
  dispatch_lease_until?: Date | null;
  /** Operation tag of the keyed replay that created this run (decision 0197). */
  replay_op?: string | null;
}

/** The columns of a delivery its activities move. */
export type WebhookDeliveryPatch = Partial<
  Pick<
    WebhookDeliveryRow,
    | 'state'
    | 'attempts'
    | 'last_http_status'
    | 'last_error_kind'
    | 'last_attempt_at'
    | 'next_attempt_at'
    | 'finished_at'
    | 'first_attempt_due_at'
    | 'dispatch_lease_until'
    | 'body_bytes'
  >
>;

export interface WebhookAttemptRow {
  id: string;
  subscription_id: string;
  event_id: string;
  run: number;
  event_type: string;
  attempt: number | null;
  outcome: WebhookAttemptOutcome;
  http_status: number | null;
  error_kind: string | null;
  latency_ms: number | null;
  response_snippet: string | null;
  attempted_at: Date;
}

/**
 * What a recorded attempt tells the delivery workflow and the API's test answer (one shape for
 * both). `unnumbered`: the attempt number given to a row that made no request.
 */
export const attemptSummaryOf = (a: WebhookAttemptRow, unnumbered = 0): AttemptSummary => ({
  deliveryId: a.id,
  attempt: a.attempt ?? unnumbered,
  ok: a.outcome === 'success',
  httpStatus: a.http_status,
  errorKind: a.error_kind,
  latencyMs: a.latency_ms,
  responseSnippet: a.response_snippet,
  attemptedAtMs: a.attempted_at.getTime(),
});

export interface DomainEventRow {
  id: string;
  type: string;
  owner_user_ids: string[];
  owner_team_id: string | null;
  data: Record<string, unknown>;
  created_at: Date;
}

export interface DeliveryKey {
  subscriptionId: string;
  eventId: string;
  run: number;
}

export const ownerWhere = (owner: WebhookOwner) =>
  owner.kind === 'team' ? { owner_team_id: owner.teamId } : { owner_user_id: owner.userId };
export const keyWhere = (k: DeliveryKey) => ({ subscription_id: k.subscriptionId, event_id: k.eventId, run: k.run });
