import type { Knex } from 'knex';

export type MatchOfferStatus = 'offering' | 'started' | 'refused' | 'closed';

export interface MatchOfferInsert {
  id: string;
  queue_entry_id: string;
  queue_live_event_id: string | null;
  seeker_user_id: string;
  job_id: string;
  live_event_id: string;
  team_id: string;
  match_score: number;
  score_breakdown: unknown;
  score_version: string;
  entered_at: Date;
}

/** Everything the matchmaker needs to offer a planned pair and start its match workflow. */
export interface OfferContext {
  id: string;
  status: MatchOfferStatus;
  queue_entry_id: string;
  seeker_user_id: string;
  job_id: string;
  job_title: string;
  live_event_id: string;
  live_event_slug: string;
  team_id: string;
  match_score: number;
  score_breakdown: unknown;
  score_version: string;
  seeker_headline: string | null;
  seeker_via_agent: boolean;
  seeker_agent_identity: string | null;
  created_at: Date;
}

export interface LockedLiveEvent {
  id: string;
  slug: string;
  team_id: string;
  visibility: 'open_invite' | 'private';
  interview_slots: number;
}

export interface WaitingCandidate {
  id: string;
  user_id: string;
  live_event_id: string | null;
  entered_at: Date;
  skills: string[];
  experience_years: number;
  location: string | null;
  remote_preference: string | null;
}

export interface OpenJob {
  id: string;
  team_id: string;
  live_event_id: string;
  title: string;
  essential_skills: string[];
  bonus_skills: string[];
  experience_min: number;
  salary_min: number | null;
  salary_max: number | null;
  location: string | null;
  remote_preference: string | null;
}

/**
 * The matchmaker's tables and queries. `match_offers` is written only by the matching activity;
 * the rest is read (queue entries and matches are other workflows' projections, events and jobs
 * descriptive records). Locks: events `FOR NO KEY UPDATE SKIP LOCKED` (one round fills an event at
 * a time, an event being ended waits for the round's short transaction), waiting entries
 * `FOR UPDATE SKIP LOCKED` (concurrent rounds take disjoint seekers).
 */
export function createMatchmakingRepository(knex: Knex) {
  return {
    /** Offers whose match has ended free their slot. */
    async closeFinishedOffers(trx: Knex = knex): Promise<number> {
      return trx('match_offers as o')
        .update({ status: 'closed', updated_at: trx.fn.now() })
        .where('o.status', 'started')
        .whereExists(trx('matches as m').whereRaw('m.id = o.id').whereIn('m.status', ['declined', 'expired', 'completed']));
    },

    /** Offers left `offering` by a round that died before asking the entry (or starting the match). */
    async listStaleOfferIds(olderThanMs: number, limit: number, trx: Knex = knex): Promise<string[]> {
      const rows = await trx('match_offers')
        .where({ status: 'offering' })
        .andWhere('updated_at', '<', trx.raw(`now() - make_interval(secs => ?)`, [olderThanMs / 1000]))
        .orderBy('created_at')
        .limit(limit)
        .select('id');
      return rows.map((r: { id: string }) => r.id);
    },

    async lockLiveEvents(trx: Knex.Transaction): Promise<LockedLiveEvent[]> {
      return trx('live_events').where({ status: 'live' }).orderBy('id').forNoKeyUpdate().skipLocked().select('id', 'slug', 'team_id', 'visibility', 'interview_slots');
    },

    /** Slots held per event: offers being made plus matches started and not yet ended. */
    async countHeldSlots(eventIds: string[], trx: Knex = knex): Promise<Map<string, number>> {
      if (!eventIds.length) return new Map();
      const rows: Array<{ live_event_id: string; n: number }> = await trx('match_offers')
        .whereIn('live_event_id', eventIds)
        .whereIn('status', ['offering', 'started'])
        .groupBy('live_event_id')
        .select('live_event_id', trx.raw('count(*)::int as n'));
      return new Map(rows.map((r) => [r.live_event_id, Number(r.n)]));
    },

    async listOpenJobs(eventIds: string[], trx: Knex = knex): Promise<OpenJob[]> {
      if (!eventIds.length) return [];
      return trx('jobs')
        .whereIn('live_event_id', eventIds)
        .andWhere({ status: 'open' })
        .select('id', 'team_id', 'live_event_id', 'title', 'essential_skills', 'bonus_skills', 'experience_min', 'salary_min', 'salary_max', 'location', 'remote_preference');
    },

    /**
     * Waiting entries that can use one of these events, oldest first, locked for this round
     * (others skip them). Entries with an open offer, or about to expire, are left alone.
     */
    async lockWaitingEntries(opts: { eventIds: string[]; anyEventAllowed: boolean; limit: number }, trx: Knex.Transaction): Promise<WaitingCandidate[]> {
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
        .forUpdate('q')
        .skipLocked()
        .select('q.id', 'q.user_id', 'q.live_event_id', 'q.entered_at', 'p.skills', 'p.experience_years', 'p.location', 'p.remote_preference');
      return q;
    },

    /** (entry, job) pairs whose earlier match was declined or expired: not proposed again. */
    async listClosedPairs(entryIds: string[], trx: Knex = knex): Promise<Array<{ queue_entry_id: string; job_id: string }>> {
      if (!entryIds.length) return [];
      return trx('match_offers').whereIn('queue_entry_id', entryIds).andWhere({ status: 'closed' }).select('queue_entry_id', 'job_id');
    },

    async insertOffers(rows: MatchOfferInsert[], trx: Knex = knex): Promise<void> {
      if (!rows.length) return;
      await trx('match_offers').insert(rows.map((r) => ({ ...r, score_breakdown: JSON.stringify(r.score_breakdown) })));
    },

    async loadOfferContexts(ids: string[], trx: Knex = knex): Promise<OfferContext[]> {
      if (!ids.length) return [];
      return trx('match_offers as o')
        .join('jobs as j', 'j.id', 'o.job_id')
        .join('live_events as e', 'e.id', 'o.live_event_id')
        .leftJoin('profiles as p', 'p.user_id', 'o.seeker_user_id')
        .leftJoin('queue_entries as q', 'q.id', 'o.queue_entry_id')
        .whereIn('o.id', ids)
        .orderBy('o.entered_at')
        .select(
          'o.id',
          'o.status',
          'o.queue_entry_id',
          'o.seeker_user_id',
          'o.job_id',
          'j.title as job_title',
          'o.live_event_id',
          'e.slug as live_event_slug',
          'o.team_id',
          'o.match_score',
          'o.score_breakdown',
          'o.score_version',
          'p.title as seeker_headline',
          trx.raw('coalesce(q.via_agent, false) as seeker_via_agent'),
          'q.agent_identity as seeker_agent_identity',
          'o.created_at',
        );
    },

    async markStarted(id: string, trx: Knex = knex): Promise<void> {
      await trx('match_offers').where({ id }).whereIn('status', ['offering']).update({ status: 'started', updated_at: trx.fn.now() });
    },

    async markRefused(id: string, reason: string, trx: Knex = knex): Promise<void> {
      await trx('match_offers').where({ id, status: 'offering' }).update({ status: 'refused', refusal_reason: reason.slice(0, 500), updated_at: trx.fn.now() });
    },

    /** Leaves an offer for the next round to retry (bumps updated_at so it counts as fresh). */
    async touchOffer(id: string, trx: Knex = knex): Promise<void> {
      await trx('match_offers').where({ id, status: 'offering' }).update({ updated_at: trx.fn.now() });
    },

    /**
     * Matches made for one queue (an event's queue, or the "any event" queue when null) within the
     * window: how many, and when the first of them was made.
     */
    async recentMatchRate(queueLiveEventId: string | null, windowMs: number, trx: Knex = knex): Promise<{ count: number; firstAtMs: number | null; nowMs: number }> {
      const q = trx('match_offers')
        .whereIn('status', ['started', 'closed'])
        .andWhere('created_at', '>', trx.raw(`now() - make_interval(secs => ?)`, [windowMs / 1000]));
      if (queueLiveEventId) q.andWhere({ queue_live_event_id: queueLiveEventId });
      else q.whereNull('queue_live_event_id');
      const row = await q
        .first(trx.raw('count(*)::int as count'), trx.raw('(extract(epoch from min(created_at)) * 1000)::bigint as first_ms'), trx.raw('(extract(epoch from now()) * 1000)::bigint as now_ms'));
      const r = row as unknown as { count: number; first_ms: number | null; now_ms: number };
      return { count: Number(r.count), firstAtMs: r.first_ms === null ? null : Number(r.first_ms), nowMs: Number(r.now_ms) };
    },

    /** Waiting entries whose event has ended (back from a declined match after the drain ran). */
    async listWaitingEntriesOfEndedEvents(limit: number, trx: Knex = knex): Promise<Array<{ user_id: string; live_event_id: string }>> {
      return trx('queue_entries as q').join('live_events as e', 'e.id', 'q.live_event_id').where('q.status', 'waiting').andWhere('e.status', 'ended').limit(limit).select('q.user_id', 'q.live_event_id');
    },

    /** Recruiters of a team (owners of the match's events besides the seeker). */
    async listTeamMemberIds(teamId: string, trx: Knex = knex): Promise<string[]> {
      const rows = await trx('team_members').where({ team_id: teamId }).orderBy('user_id').select('user_id');
      return rows.map((r: { user_id: string }) => r.user_id);
    },
  };
}
export type MatchmakingRepository = ReturnType<typeof createMatchmakingRepository>;
