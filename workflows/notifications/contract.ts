/**
 * Contract of the notifications capability: the outbox e-mail workflow's id, type name and
 * Input/Result types. No I/O (imports only @temporalio/workflow, @temporalio/common and other
 * contracts), so workflows, activities, clients and the API all import it.
 */

/** `outbox-email:<outboxId>`: one run per `email_outbox` row (a repeated start collapses on the id). */
export const outboxEmailWorkflowId = (outboxId: string): string => `outbox-email:${outboxId}`;

export interface OutboxEmailInput {
  outboxId: string;
}

export interface OutboxEmailResult {
  /** `sent`, `failed` (after the last attempt), `pending` (no SMTP_URL: the row stays in the outbox) or `missing`. */
  status: string;
}

/** Workflow type `outboxEmailWorkflow` (its export in workflows/index.ts): clients start it by this name. */
export const OUTBOX_EMAIL_WORKFLOW = 'outboxEmailWorkflow';
export type OutboxEmailWorkflow = (input: OutboxEmailInput) => Promise<OutboxEmailResult>;
