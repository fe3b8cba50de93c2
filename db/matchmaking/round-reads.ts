import type { Knex } from 'knex';
import type { OpenJob, WaitingCandidate } from './matchmaking-rows';

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/** What a round plans from, read without locks: the waiting entries and the open jobs of live events. */
export function createRoundReadQueries(knex: Knex) {
  return {
    /**
     * Waiting entries that can use one of these events, oldest first, read without locks (a round
     * plans on them; `holdSlots` re-checks each under a lock). Entries with an open offer, or
     * expired, are left out.
     */
    async listWaitingEntries(
      opts: { eventIds: string[]; anyEventAllowed: boolean; limit: number; after?: { enteredAt: Date; id: string } },
      trx: Knex = knex,
    ): Promise<WaitingCandidate[]> {
      if (!opts.eventIds.length && !opts.anyEventAllowed) return [];
      const q = trx('queue_entries as q')
        .join('profiles as p', 'p.user_id', 'q.user_id')
        .where('q.status', 'waiting')
        .andWhere((w) => {
          w.whereNull('q.expires_at').orWhere('q.expires_at', '>', trx.fn.now());
        })
        .whereNotExists(trx('match_offers as o').whereRaw('o.queue_entry_id = q.id').andWhere('o.status', 'offering'))
        .andWhere((w) => {
          if (opts.eventIds.length) w.whereIn('q.live_event_id', opts.eventIds);
          else w.whereRaw('false');
          if (opts.anyEventAllowed) w.orWhereNull('q.live_event_id');
        })
        .orderBy([{ column: 'q.entered_at' }, { column: 'q.id' }])
        .limit(opts.limit)
        .select(
          'q.id',
          'q.user_id',
          'q.live_event_id',
          'q.entered_at',
          'p.skills',
          'p.experience_years',
          'p.location',
          'p.remote_preference',
          'p.salary_expectation',
        );
      // The next page (a round pages oldest first; queue_entries_waiting_order_idx).
      if (opts.after) q.andWhereRaw('(q.entered_at, q.id) > (?, ?::uuid)', [opts.after.enteredAt, opts.after.id]);
      return q;
    },

    /**
     * Per event, the counter the `jobs` triggers bump on every change of its jobs (missing: 0), and
     * the epoch a TRUNCATE bumps (the nil uuid). The matchmaker's job cache reloads an event's jobs
     * when its counter moved (migration 20261122201801).
     */
    async listJobVersions(
      eventIds: string[],
      trx: Knex = knex,
    ): Promise<{ epoch: number; versions: Map<string, number> }> {
      const { rows } = await trx.raw<{ rows: Array<{ live_event_id: string; version: string }> }>(
        `SELECT live_event_id, version FROM matching_job_versions WHERE live_event_id = ANY(?::uuid[])`,
        [[NIL_UUID, ...eventIds]],
      );
      const versions = new Map(rows.map((r) => [r.live_event_id, Number(r.version)]));
      const epoch = versions.get(NIL_UUID) ?? 0;
      versions.delete(NIL_UUID);
      return { epoch, versions };
    },

    /** Open jobs of these events: the fields the score reads (no title or description, unless `titles`). */
    async listCandidateJobs(
      eventIds: string[],
      trx: Knex = knex,
      opts: { titles?: boolean } = {},
    ): Promise<Array<OpenJob & { title?: string }>> {
      if (!eventIds.length) return [];
      return trx('jobs')
        .whereIn('live_event_id', eventIds)
        .andWhere({ status: 'open' })
        .select(
          'id',
          'team_id',
          'live_event_id',
          'essential_skills',
          'bonus_skills',
          'experience_min',
          'salary_min',
          'salary_max',
          'location',
          'remote_preference',
          ...(opts.titles ? ['title'] : []),
        );
    },

    /** Waiting entries whose event has ended (back from a declined match after the drain ran). */
    async listWaitingEntriesOfEndedEvents(
      limit: number,
      trx: Knex = knex,
    ): Promise<Array<{ user_id: string; live_event_id: string }>> {
      return trx('queue_entries as q')
        .join('live_events as e', 'e.id', 'q.live_event_id')
        .where('q.status', 'waiting')
        .andWhere('e.status', 'ended')
        .limit(limit)
        .select('q.user_id', 'q.live_event_id');
    },
  };
}
