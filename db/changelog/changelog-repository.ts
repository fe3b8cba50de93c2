import type { Knex } from 'knex';

export interface ChangelogAnnouncementRow {
  entry_id: string;
  workflow_id: string;
  state: 'pending' | 'started';
  created_at: Date;
  started_at: Date | null;
}

export function createChangelogRepository(knex: Knex) {
  return {
    /** Claims the announcement of each entry not claimed before; returns nothing (read the pending rows next). */
    async claim(
      rows: Array<Pick<ChangelogAnnouncementRow, 'entry_id' | 'workflow_id'>>,
      trx: Knex = knex,
    ): Promise<void> {
      if (rows.length === 0) return;
      await trx('changelog_announcements').insert(rows).onConflict('entry_id').ignore();
    },
    async listPending(entryIds: string[], trx: Knex = knex): Promise<ChangelogAnnouncementRow[]> {
      if (entryIds.length === 0) return [];
      return trx('changelog_announcements')
        .whereIn('entry_id', entryIds)
        .andWhere({ state: 'pending' })
        .orderBy('created_at');
    },
    async markStarted(entryId: string, trx: Knex = knex): Promise<void> {
      await trx('changelog_announcements')
        .where({ entry_id: entryId, state: 'pending' })
        .update({ state: 'started', started_at: trx.fn.now() });
    },
    async findByEntryId(entryId: string, trx: Knex = knex): Promise<ChangelogAnnouncementRow | undefined> {
      return trx('changelog_announcements').where({ entry_id: entryId }).first();
    },
  };
}
export type ChangelogRepository = ReturnType<typeof createChangelogRepository>;
