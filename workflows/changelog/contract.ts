/**
 * Contract of the changelog capability: the announcement workflow's id, type name and Input/Result
 * types. Holds every message definition, id helper, type name, Input/Result type and vocabulary of the capability; no I/O (imports only @temporalio/workflow, @temporalio/common and other contracts), so workflows, activities, clients and the API all import it.
 */

/**
 * `changelog-announcement:<entryId>:<claimId>`. The claim id (from the `changelog_announcements`
 * row) keeps deployments — or test databases — that share one Temporal namespace apart; the row,
 * not the workflow id, is what makes an entry's announcement happen once.
 */
export const changelogAnnouncementWorkflowId = (entryId: string, claimId: string): string =>
  `changelog-announcement:${entryId}:${claimId}`;

/** Deterministic per entry, so a repeated announcement is recorded (and delivered) as one event. */
export const changelogEventId = (entryId: string): string => `evt_changelog_${entryId}`;

export const CHANGELOG_EVENT_TYPE = 'changelog.api';

export interface ChangelogAnnouncementInput {
  entryId: string;
  /** The `data` of the `changelog.api` event (small: one changelog entry). */
  data: {
    entry_id: string;
    date: string;
    kind: string;
    title: string;
    description: string;
    changelog_url: string;
  };
}

export interface ChangelogAnnouncementResult {
  eventId: string;
  /** False when the event had already been recorded (an earlier run announced it). */
  recorded: boolean;
}

/** Workflow type `changelogAnnouncementWorkflow` (its export in workflows/index.ts): clients start it by this name, never by importing the implementation. */
export const CHANGELOG_ANNOUNCEMENT_WORKFLOW = 'changelogAnnouncementWorkflow';
export type ChangelogAnnouncementWorkflow = (input: ChangelogAnnouncementInput) => Promise<ChangelogAnnouncementResult>;
