/**
 * Contract of the retention capability: the one `retentionWorkflow` per task queue that deletes
 * rows past their retention in small batches (decision 0267, docs/design/retention.md). Imports
 * only other contracts.
 */

/** One retention workflow per task queue, started (idempotently) by every worker at start. */
export const retentionWorkflowId = (taskQueue: string): string => `retention:${taskQueue}`;

/**
 * The tables the retention workflow prunes, in the order of a pass; also the values of the
 * `table` label of `jobfair_retention_rows_deleted_total`. Attempts go with their delivery.
 */
export const RETENTION_TABLES = [
  'idempotency_keys',
  'webhook_deliveries',
  'webhook_delivery_attempts',
  'domain_events',
  'email_outbox',
  'oauth_codes',
  'oauth_tokens',
  'web_sessions',
  'signup_requests',
] as const;
export type RetentionTable = (typeof RETENTION_TABLES)[number];

export type RetentionTotals = Record<RetentionTable, number>;

export interface RetentionInput {
  taskQueue: string;
  /** Carried over continue-as-new: rows deleted since the workflow first started, and passes finished. */
  totals?: Partial<RetentionTotals>;
  passes?: number;
}

/** Activity `pruneExpiredRows`: one call deletes batch after batch until nothing is past its retention or the call's budget is spent. */
export interface PruneExpiredRowsInput {
  /** Defaults to the worker's RETENTION_BATCH_SIZE (tests pass a smaller one). */
  batchSize?: number;
  /** Defaults to the worker's RETENTION_MAX_BATCHES_PER_CALL. */
  maxBatches?: number;
}
export interface PruneExpiredRowsResult {
  deleted: RetentionTotals;
  /** The budget ran out before every table was done: the workflow calls again at once. */
  more: boolean;
  /** How long to wait before the next pass (the worker's RETENTION_INTERVAL_MS, so a deploy changes it). */
  nextPassInMs: number;
}

/** Workflow type `retentionWorkflow`: runs forever, continuing as new. */
export const RETENTION_WORKFLOW = 'retentionWorkflow';
export type RetentionWorkflow = (input: RetentionInput) => Promise<void>;

export const emptyRetentionTotals = (): RetentionTotals =>
  Object.fromEntries(RETENTION_TABLES.map((t) => [t, 0])) as RetentionTotals;
