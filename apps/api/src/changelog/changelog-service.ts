import fs from 'node:fs';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { WorkflowExecutionAlreadyStartedError, WorkflowIdReusePolicy } from '@temporalio/common';
import { z } from 'zod';
import type { Config } from '#lib/config';
import {
  changelogAnnouncementWorkflowId,
  CHANGELOG_ANNOUNCEMENT_WORKFLOW,
  type ChangelogAnnouncementInput,
  type ChangelogAnnouncementWorkflow,
} from '#workflows/changelog/contract';
import type { ServiceDeps } from '../plugins/service-deps';

/** The changelog's one source: a JSON file in the repository, reviewed like code. */
export const CHANGELOG_FILE = path.join(__dirname, '..', '..', '..', '..', 'docs', 'api-changelog.json');

export const CHANGE_KINDS = ['added', 'changed', 'deprecated', 'removed', 'fixed'] as const;

export const changelogEntrySchema = z
  .object({
    id: z
      .string()
      .regex(/^[a-z0-9][a-z0-9-]{2,79}$/, 'lowercase letters, digits and dashes, 3–80 characters')
      .describe('Stable, never reused; the changelog.api event id is derived from it'),
    date: z.iso.date().describe('When the change took effect (YYYY-MM-DD)'),
    kind: z.enum(CHANGE_KINDS).describe('v1 only adds, changes compatibly, or deprecates; removals happen in /api/v2'),
    title: z.string().min(1).max(200),
    description: z.string().min(1).max(4000),
    operations: z.array(z.string()).default([]).describe('operationIds of the OpenAPI document this entry is about'),
  })
  .meta({ id: 'ChangelogEntry' });

export type ChangelogEntry = z.output<typeof changelogEntrySchema>;

const changelogFileSchema = z.object({
  entries: z.array(changelogEntrySchema).superRefine((entries, ctx) => {
    const seen = new Set<string>();
    for (const [i, e] of entries.entries()) {
      if (seen.has(e.id)) ctx.addIssue({ code: 'custom', path: [i, 'id'], message: `duplicate entry id ${e.id}` });
      seen.add(e.id);
    }
  }),
});

/** Reads and validates the changelog file; a bad file stops the API at start with every problem named. */
export function loadChangelog(file = CHANGELOG_FILE): ChangelogEntry[] {
  const raw = JSON.parse(fs.readFileSync(file, 'utf8')) as unknown;
  const parsed = changelogFileSchema.safeParse(raw);
  if (!parsed.success) {
    throw new Error(
      `Invalid API changelog ${file}:\n${parsed.error.issues.map((i) => `  - entries.${i.path.join('.')}: ${i.message}`).join('\n')}`,
    );
  }
  return parsed.data.entries;
}

export function createChangelogService(
  deps: Pick<ServiceDeps, 'repos' | 'temporal' | 'config'> & { entries: ChangelogEntry[] },
) {
  const repo = deps.repos.changelog;
  const announcementInput = (e: ChangelogEntry): ChangelogAnnouncementInput => ({
    entryId: e.id,
    data: {
      entry_id: e.id,
      date: e.date,
      kind: e.kind,
      title: e.title,
      description: e.description,
      changelog_url: `${deps.config.publicBaseUrl}/api/v1/changelog#${e.id}`,
    },
  });

  return {
    /** Newest first, as in the file. */
    list: (): ChangelogEntry[] => deps.entries,

    /**
     * Announces every entry not announced before, once across all API replicas: each entry is
     * claimed with INSERT … ON CONFLICT DO NOTHING in `changelog_announcements`, then the
     * `changelog-announcement:<entryId>:<claimId>` workflow is started (an "already started"
     * answer counts as started: a replica racing us got there first) and the row marked started.
     * A replica that died between claim and start leaves a pending row that the next call repairs.
     * Returns the ids whose workflow this call saw through to started.
     */
    async announcePending(entries: ChangelogEntry[] = deps.entries): Promise<string[]> {
      await repo.claim(
        entries.map((e) => ({
          entry_id: e.id,
          workflow_id: changelogAnnouncementWorkflowId(e.id, randomUUID().slice(0, 8)),
        })),
      );
      const pending = await repo.listPending(entries.map((e) => e.id));
      const byId = new Map(entries.map((e) => [e.id, e]));
      const started: string[] = [];
      // Oldest first, so subscribers receive the announcements in the order the changes happened.
      for (const row of [...pending].sort(
        (a, b) => entries.findIndex((e) => e.id === b.entry_id) - entries.findIndex((e) => e.id === a.entry_id),
      )) {
        const entry = byId.get(row.entry_id)!;
        try {
          await deps.temporal.workflow.start<ChangelogAnnouncementWorkflow>(CHANGELOG_ANNOUNCEMENT_WORKFLOW, {
            workflowId: row.workflow_id,
            taskQueue: deps.config.TEMPORAL_TASK_QUEUE,
            workflowIdReusePolicy: WorkflowIdReusePolicy.ALLOW_DUPLICATE_FAILED_ONLY,
            staticSummary: `Announce API changelog entry ${entry.id}: ${entry.title}`,
            args: [announcementInput(entry)],
          });
        } catch (err) {
          if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
        }
        await repo.markStarted(row.entry_id);
        started.push(row.entry_id);
      }
      return started;
    },
  };
}
export type ChangelogService = ReturnType<typeof createChangelogService>;
