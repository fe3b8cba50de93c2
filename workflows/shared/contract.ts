import { defineSearchAttributeKey, SearchAttributeType } from '@temporalio/common';

/**
 * The shared contract of every capability: the search attribute keys operators filter on in the
 * Temporal UI (registered at every dev-server start). Workflows upsert them; clients set them at start.
 */
export const JobfairEntity = defineSearchAttributeKey('JobfairEntity', SearchAttributeType.KEYWORD);
export const JobfairStatus = defineSearchAttributeKey('JobfairStatus', SearchAttributeType.KEYWORD);
export const JobfairEventSlug = defineSearchAttributeKey('JobfairEventSlug', SearchAttributeType.KEYWORD);
export const JobfairUserId = defineSearchAttributeKey('JobfairUserId', SearchAttributeType.KEYWORD);
export const JobfairTeamId = defineSearchAttributeKey('JobfairTeamId', SearchAttributeType.KEYWORD);
export const JobfairWebhookId = defineSearchAttributeKey('JobfairWebhookId', SearchAttributeType.KEYWORD);

/** Every key above, in one list: the dev servers register exactly these (dev/temporal-server.ts). */
export const JOBFAIR_SEARCH_ATTRIBUTES = [
  JobfairEntity,
  JobfairStatus,
  JobfairEventSlug,
  JobfairUserId,
  JobfairTeamId,
  JobfairWebhookId,
] as const;

/**
 * Start summaries and details of our workflows (`staticSummary` / `staticDetails`: the Temporal UI
 * shows them in the list and on the workflow's page). They name people and jobs by name — never an
 * e-mail address (a display name typed as one is masked) and never only an id; the ids stay in the
 * search attributes and the details. Pure: each capability's contract builds its own from these.
 */
export interface StartMetadata {
  staticSummary: string;
  staticDetails: string;
}

const EMAIL_RE = /[^\s@<>()",;]+@[^\s@<>()",;]+\.[^\s@<>()",;]+/g;

/** A name as it may enter Temporal: trimmed, one line, e-mail addresses masked, at most 80 characters. */
export function temporalName(name: string | null | undefined, fallback: string): string {
  const clean = (name ?? '').replace(EMAIL_RE, '[e-mail hidden]').replace(/\s+/g, ' ').trim();
  if (!clean || clean === '[e-mail hidden]') return fallback;
  return clean.length > 80 ? `${clean.slice(0, 79)}…` : clean;
}

/** Details as "Label: value" lines (the UI renders them as Markdown; two spaces keep the line breaks). */
export function detailLines(lines: Array<[string, string | number | null | undefined]>): string {
  return lines
    .filter(([, v]) => v !== null && v !== undefined && v !== '')
    .map(([k, v]) => `${k}: ${String(v).replace(EMAIL_RE, '[e-mail hidden]')}`)
    .join('  \n');
}
