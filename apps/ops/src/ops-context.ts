import { WorkflowNotFoundError, type Client } from '@temporalio/client';
import type { Services } from '../../api/src/services';

/**
 * The operator's commands behind `npm run ops` (apps/ops/src/ops.ts), as functions over the API's
 * composition root and a Temporal client, so tests call them as the CLI does. Answers are words:
 * names (never e-mail addresses), times in the operator's local time zone with "in 3 min".
 */
export interface OpsContext {
  services: Services;
  temporal: Client;
  now?: () => number;
  /** IANA zone for times (default: the process's, i.e. TZ). */
  timeZone?: string;
}

/** A time in words: the operator's local time and how far from now ("in 3 min", "2 min ago"). */
export function when(ms: number | null | undefined, nowMs: number, timeZone?: string): string {
  if (ms === null || ms === undefined) return 'never';
  const at = new Date(ms).toLocaleString('en-GB', {
    timeZone,
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
    day: '2-digit',
    month: 'short',
    timeZoneName: 'short',
  });
  const d = Math.round((ms - nowMs) / 1000);
  const span = (s: number) =>
    s < 90 ? `${s} s` : s < 5400 ? `${Math.round(s / 60)} min` : `${(s / 3600).toFixed(1)} h`;
  return `${at} (${Math.abs(d) < 3 ? 'now' : d > 0 ? `in ${span(d)}` : `${span(-d)} ago`})`;
}

/** Workflow state: the query while it runs (a worker answers), its result once it has closed. */
export async function stateOf<T>(
  temporal: Client,
  workflowId: string,
  query: Parameters<ReturnType<Client['workflow']['getHandle']>['query']>[0],
): Promise<{ state: T; running: boolean } | null> {
  const handle = temporal.workflow.getHandle(workflowId);
  try {
    const d = await handle.describe();
    if (d.status.name === 'RUNNING') return { state: (await handle.query(query)) as T, running: true };
    if (d.status.name === 'COMPLETED') return { state: (await handle.result()) as T, running: false };
    return null;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/** `why` was given something no store knows: the CLI prints the message and exits non-zero. */
export class UnknownSubjectError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnknownSubjectError';
  }
}
