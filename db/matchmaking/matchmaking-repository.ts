import type { Knex } from 'knex';
import type { EventVisibility } from '../events/events-repository';

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
  /** Set by `holdSlots` for events with recruiter availability (round-robin). */
  recruiter_user_id?: string | null;
}

/** Everything the matchmaker needs to offer a planned pair and start its match workflow. */
export interface OfferContext {
  id: string;
  /** The recruiter the offer went to (events with availability), else null. */
  recruiter_user_id: string | null;
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
  /** Names for the Temporal UI's start summary. */
  seeker_name: string | null;
  company_name: string | null;
  recruiter_name: string | null;
}

/** A live event that can take a match now: open jobs and a free slot (read without locks). */
export interface EventWithRoom {
  id: string;
  visibility: EventVisibility;
  interview_slots: number;
  free: number;
  /** The event's quality floor settings (null: the configured default). */
  match_min_score: number | null;
  match_require_essential: boolean | null;
  match_relax_essential: boolean | null;
  match_allow_remote_mismatch: boolean | null;
}

/**
 * A live event's room as the round counts it, part by part (`listEventsWithRoom`): what the wait
 * explanation names when a seeker cannot be offered for lack of room.
 */
export interface EventRoom extends EventWithRoom {
  slug: string;
  has_jobs: boolean;
  /** interview_slots − offers being made − matches started and not ended. */
  slots_free: number;
  /** Recruiters who set availability at the event (0: event-level capacity only). */
  recruiters: number;
  /** Of them, those who take new interviews. */
  recruiters_available: number;
  /** Σ over available recruiters of capacity − their open offers at the event. */
  recruiter_free: number;
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
  /** The seeker's lowest acceptable yearly salary (profile, optional): the score's salary component. */
  salary_expectation: number | null;
}

/** What holding slots for one event did with the planned offers (see `holdSlots`). */
export interface HoldResult {
  /** Offers written (`offering`): the slots are held. */
  held: string[];
  /** The entry (or the event, past the lock timeout) was locked by someone else: try again next round. */
  busy: number;
  /** No slot left when its turn came (another round took it meanwhile). */
  full: number;
  /** No longer possible: the event is not live, the entry not waiting (or already offered), the job closed, the pair already tried. */
  stale: number;
}

export interface OpenJob {
  id: string;
  team_id: string;
  live_event_id: string;
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
 * descriptive records). The round reads everything it plans from without locks; only
 * `holdSlotsOfEvents` locks, in one short transaction for the round's planned events (decision
 * 0190): the events `FOR NO KEY UPDATE SKIP LOCKED` (the capacity check and the inserts
 * are serialised per event; go-live/end projections wait for a few milliseconds at most) and the
 * planned entries `FOR UPDATE SKIP LOCKED` (a seeker another round is offering is skipped).
 */
interface RecruiterTurn {
  userId: string;
  free: number;
  lastOfferedAtMs: number;
  /** Offers given in this transaction, in order (after every earlier one). */
  turn: number;
}

/**
 * An event's available recruiters and their free capacity, read under the event's lock (their
 * open offers at this event), or null when the event has no availability rows (event-level
 * capacity only). Decision 0123.
 */
async function recruitersOf(trx: Knex, eventId: string): Promise<RecruiterTurn[] | null> {
  const { rows } = await trx.raw<{
    rows: Array<{ user_id: string; available: boolean; capacity: number; last_ms: string | null; active: number }>;
  }>(
    `SELECT r.user_id, r.available, r.capacity, (extract(epoch FROM r.last_offered_at) * 1000)::bigint AS last_ms,
            (SELECT count(*)::int FROM match_offers o WHERE o.live_event_id = r.live_event_id AND o.recruiter_user_id = r.user_id AND o.status IN ('offering', 'started')) AS active
       FROM recruiter_availability r WHERE r.live_event_id = ?`,
    [eventId],
  );
  if (!rows.length) return null;
  return rows
    .filter((r) => r.available)
    .map((r) => ({
      userId: r.user_id,
      free: Math.max(0, r.capacity - r.active),
      lastOfferedAtMs: r.last_ms === null ? -1 : Number(r.last_ms),
      turn: 0,
    }));
}

/** `recruitersOf` for several events at once (one statement), by event; events without availability rows are absent. */
async function recruitersOfEvents(trx: Knex, eventIds: string[]): Promise<Map<string, RecruiterTurn[]>> {
  const out = new Map<string, RecruiterTurn[]>();
  if (!eventIds.length) return out;
  const { rows } = await trx.raw<{
    rows: Array<{
      live_event_id: string;
      user_id: string;
      available: boolean;
      capacity: number;
      last_ms: string | null;
      active: number;
    }>;
  }>(
    `SELECT r.live_event_id, r.user_id, r.available, r.capacity, (extract(epoch FROM r.last_offered_at) * 1000)::bigint AS last_ms,
            (SELECT count(*)::int FROM match_offers o WHERE o.live_event_id = r.live_event_id AND o.recruiter_user_id = r.user_id AND o.status IN ('offering', 'started')) AS active
       FROM recruiter_availability r WHERE r.live_event_id = ANY(?::uuid[])`,
    [eventIds],
  );
  for (const r of rows) {
    const list = out.get(r.live_event_id) ?? [];
    out.set(r.live_event_id, list);
    if (r.available)
      list.push({
        userId: r.user_id,
        free: Math.max(0, r.capacity - r.active),
        lastOfferedAtMs: r.last_ms === null ? -1 : Number(r.last_ms),
        turn: 0,
      });
  }
  return out;
}

/** Least recent offer first (never offered: first of all), ties by user id; only recruiters with room. */
function nextRecruiter(recruiters: RecruiterTurn[]): RecruiterTurn | null {
  let best: RecruiterTurn | null = null;
  for (const r of recruiters) {
    if (r.free <= 0) continue;
    if (
      !best ||
      r.turn < best.turn ||
      (r.turn === best.turn &&
        (r.lastOfferedAtMs < best.lastOfferedAtMs ||
          (r.lastOfferedAtMs === best.lastOfferedAtMs && r.userId < best.userId)))
    )
      best = r;
  }
  return best;
}

const NIL_UUID = '00000000-0000-0000-0000-000000000000';

/**
 * A row of `matches` (unaliased columns) whose (seeker, job) pair is never offered again: see
 * `listBlockedPairs`. The status read selects the same pairs (queue-status-repository.ts).
 */
export const BLOCKED_MATCH_SQL =
  `((status IN ('declined', 'accepted', 'completed') OR declined_at IS NOT NULL OR accepted_at IS NOT NULL)` +
  ` AND NOT (status = 'no_show' AND no_show_missing = 'recruiter'))`;
/** Offer states of an (entry, job) pair already tried: see `listTriedPairs`. */
export const TRIED_OFFER_STATUSES: readonly MatchOfferStatus[] = ['started', 'closed'];

export function createMatchmakingRepository(knex: Knex) {
  /**
   * (seeker, job) pairs never offered again, whatever queue entry the seeker waits in: an earlier
   * match of the pair was declined (by either side) or reached the interview (accepted or
   * completed — the report card's "passed" is a completed interview). A recruiter's no-show is
   * not held against the seeker: that pair may be offered again.
   */
  const listBlockedPairs = async (
    seekerUserIds: string[],
    trx: Knex = knex,
  ): Promise<Array<{ seeker_user_id: string; job_id: string }>> => {
    if (!seekerUserIds.length) return [];
    return trx('matches')
      .whereIn('seeker_user_id', seekerUserIds)
      .andWhereRaw(BLOCKED_MATCH_SQL)
      .distinct('seeker_user_id', 'job_id');
  };

  return {
    /** Offers whose match has ended free their slot. */
    async closeFinishedOffers(trx: Knex = knex): Promise<number> {
      return trx('match_offers as o')
        .update({ status: 'closed', updated_at: trx.fn.now() })
        .where('o.status', 'started')
        .whereExists(
          trx('matches as m')
            .whereRaw('m.id = o.id')
            .whereIn('m.status', ['declined', 'expired', 'completed', 'no_show']),
        );
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

    /**
     * Live events that can take a match now (open jobs, a free slot), read without locks, and how
     * many events are live. Free = `interview_slots` − offers being made − matches started and not
     * ended (the same count `holdSlots` re-checks under the event lock).
     */
    async listEventsWithRoom(
      trx: Knex = knex,
      onlyEventId?: string,
    ): Promise<{ live: number; liveIds: string[]; withRoom: EventWithRoom[]; rooms: EventRoom[] }> {
      const rows: EventRoom[] = (
        await trx.raw(
          `SELECT e.id, e.slug, e.visibility, e.interview_slots, e.match_min_score, e.match_require_essential,
                  e.match_relax_essential, e.match_allow_remote_mismatch,
                  CASE WHEN ra.recruiters > 0 THEN least(e.interview_slots - coalesce(h.n, 0), ra.recruiter_free)
                       ELSE e.interview_slots - coalesce(h.n, 0) END AS free,
                  e.interview_slots - coalesce(h.n, 0) AS slots_free, coalesce(ra.recruiters, 0) AS recruiters,
                  coalesce(ra.recruiters_available, 0) AS recruiters_available, coalesce(ra.recruiter_free, 0) AS recruiter_free,
                  EXISTS (SELECT 1 FROM jobs j WHERE j.live_event_id = e.id AND j.status = 'open') AS has_jobs
             FROM live_events e
             LEFT JOIN (SELECT live_event_id, count(*)::int AS n FROM match_offers WHERE status IN ('offering', 'started') GROUP BY live_event_id) h
               ON h.live_event_id = e.id
             -- Events with recruiter availability: room is also what the available recruiters can still take.
             LEFT JOIN LATERAL (
               SELECT count(*)::int AS recruiters, count(*) FILTER (WHERE r.available)::int AS recruiters_available,
                      coalesce(sum(CASE WHEN r.available THEN greatest(r.capacity - coalesce(a.n, 0), 0) ELSE 0 END), 0)::int AS recruiter_free
                 FROM recruiter_availability r
                 LEFT JOIN (SELECT recruiter_user_id, count(*)::int AS n FROM match_offers
                             WHERE live_event_id = e.id AND status IN ('offering', 'started') GROUP BY recruiter_user_id) a
                   ON a.recruiter_user_id = r.user_id
                WHERE r.live_event_id = e.id) ra ON true
            WHERE e.status = 'live' AND (?::uuid IS NULL OR e.id = ?::uuid)`,
          [onlyEventId ?? null, onlyEventId ?? null],
        )
      ).rows;
      const rooms = rows.map((r) => ({
        ...r,
        free: Number(r.free),
        slots_free: Number(r.slots_free),
        recruiters: Number(r.recruiters),
        recruiters_available: Number(r.recruiters_available),
        recruiter_free: Number(r.recruiter_free),
      }));
      return {
        live: rows.length,
        liveIds: rows.map((r) => r.id),
        withRoom: rooms
          .filter((r) => r.has_jobs && r.free > 0)
          .map(
            ({
              slug: _slug,
              has_jobs: _j,
              slots_free: _s,
              recruiters: _r,
              recruiters_available: _a,
              recruiter_free: _f,
              ...r
            }): EventWithRoom => r,
          ),
        rooms,
      };
    },

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

    /** The entry has an offer being made to it (`offering`): the round skips it until the offer is answered. */
    async hasOpenOffer(entryId: string, trx: Knex = knex): Promise<boolean> {
      return !!(await trx('match_offers').where({ queue_entry_id: entryId, status: 'offering' }).first('id'));
    },

    /**
     * (entry, job) pairs already tried: their match was started (and has ended or is ending, since
     * the entry waits again) or closed (declined, expired). Not proposed again.
     */
    async listTriedPairs(
      entryIds: string[],
      trx: Knex = knex,
    ): Promise<Array<{ queue_entry_id: string; job_id: string }>> {
      if (!entryIds.length) return [];
      return trx('match_offers')
        .whereIn('queue_entry_id', entryIds)
        .whereIn('status', TRIED_OFFER_STATUSES)
        .select('queue_entry_id', 'job_id');
    },

    listBlockedPairs,

    /**
     * Holds slots of one event for planned offers (plan order), in one short transaction: lock the
     * event row (`FOR NO KEY UPDATE SKIP LOCKED`: if another round or a projection holds it, the
     * offers are left for the next round rather than waited for), re-check it is live and count
     * its held slots; lock the planned entries (`FOR UPDATE SKIP LOCKED`) and re-check each still
     * waits, has no open offer, may use this event (its own, or an open-invite one for "any
     * event"), the job is open and the pair untried; write as many `offering` offers as slots are
     * free. Every offer is written under its event's lock and its entry's lock, so no round can
     * overfill an event or give one entry two open offers. Nothing here waits for a lock.
     */
    async holdSlots(eventId: string, offers: MatchOfferInsert[]): Promise<HoldResult> {
      return this.holdSlotsOfEvents([[eventId, offers]]);
    },

    /**
     * `holdSlots` for several events in one short transaction (so a round's planned offers
     * cost a dozen statements in all, not a dozen per event). The same locks and re-checks, taken
     * for every event at once: the event rows `FOR NO KEY UPDATE SKIP LOCKED` (one skipped is
     * `busy` for all its offers, or `stale` when it is no longer live), then the planned entries
     * `FOR UPDATE SKIP LOCKED`, then — in statements after the locks — the entries' offers, the
     * blocked pairs and the open jobs; offers are written per event in plan order up to its free
     * slots (and its available recruiters' room, round-robin). Nothing here waits for a lock.
     */
    async holdSlotsOfEvents(groups: Array<[string, MatchOfferInsert[]]>): Promise<HoldResult> {
      const result: HoldResult = { held: [], busy: 0, full: 0, stale: 0 };
      groups = groups.filter(([, offers]) => offers.length > 0);
      if (!groups.length) return result;
      return knex.transaction(async (trx) => {
        const eventIds = groups.map(([id]) => id);
        const lockedEvents: Array<{ id: string; status: string; visibility: string; interview_slots: number }> =
          await trx('live_events')
            .whereIn('id', eventIds)
            .orderBy('id')
            .forNoKeyUpdate()
            .skipLocked()
            .select('id', 'status', 'visibility', 'interview_slots');
        const eventById = new Map(lockedEvents.map((e) => [e.id, e]));
        const notLocked = eventIds.filter((id) => !eventById.has(id));
        const unlockedLive = new Set<string>(
          notLocked.length
            ? (await trx('live_events').whereIn('id', notLocked).andWhere({ status: 'live' }).select('id')).map(
                (r: { id: string }) => r.id,
              )
            : [],
        );
        const liveIds = lockedEvents.filter((e) => e.status === 'live').map((e) => e.id);
        const heldBy = new Map<string, number>(
          liveIds.length
            ? (
                await trx('match_offers')
                  .whereIn('live_event_id', liveIds)
                  .whereIn('status', ['offering', 'started'])
                  .groupBy('live_event_id')
                  .select('live_event_id', trx.raw('count(*)::int AS n'))
              ).map((r: { live_event_id: string; n: number }) => [r.live_event_id, Number(r.n)])
            : [],
        );
        const recruitersBy = await recruitersOfEvents(trx, liveIds);
        const freeBy = new Map<string, number>();
        for (const id of liveIds) {
          let free = eventById.get(id)!.interview_slots - (heldBy.get(id) ?? 0);
          const recruiters = recruitersBy.get(id);
          if (recruiters)
            free = Math.min(
              free,
              recruiters.reduce((n, r) => n + r.free, 0),
            );
          freeBy.set(id, free);
        }

        // Offers of events that are locked, live and have room go on; the others are counted now.
        const candidates: MatchOfferInsert[] = [];
        for (const [eventId, all] of groups) {
          const offers = all.filter((o) => o.live_event_id === eventId);
          result.stale += all.length - offers.length;
          const event = eventById.get(eventId);
          if (!offers.length) continue;
          if (!event) {
            if (unlockedLive.has(eventId)) result.busy += offers.length;
            else result.stale += offers.length;
          } else if (event.status !== 'live') result.stale += offers.length;
          else if ((freeBy.get(eventId) ?? 0) <= 0) result.full += offers.length;
          else candidates.push(...offers);
        }
        if (!candidates.length) return result;

        const notExpired = (w: Knex.QueryBuilder) => w.whereNull('expires_at').orWhere('expires_at', '>', trx.fn.now());
        const entryIds = [...new Set(candidates.map((o) => o.queue_entry_id))];
        const locked: Array<{ id: string; live_event_id: string | null }> = await trx('queue_entries')
          .whereIn('id', entryIds)
          .andWhere('status', 'waiting')
          .andWhere(notExpired)
          .forUpdate()
          .skipLocked()
          .select('id', 'live_event_id');
        const lockedById = new Map(locked.map((e) => [e.id, e]));
        // Statements after the locks see every offer committed by whoever held an entry's lock before.
        const previous: Array<{ queue_entry_id: string; job_id: string; status: MatchOfferStatus }> = locked.length
          ? await trx('match_offers')
              .whereIn(
                'queue_entry_id',
                locked.map((e) => e.id),
              )
              .whereIn('status', ['offering', 'started', 'closed'])
              .select('queue_entry_id', 'job_id', 'status')
          : [];
        const blocked = new Set(
          (
            await listBlockedPairs(
              candidates.filter((o) => lockedById.has(o.queue_entry_id)).map((o) => o.seeker_user_id),
              trx,
            )
          ).map((p) => `${p.seeker_user_id}:${p.job_id}`),
        );
        const offering = new Set(previous.filter((p) => p.status === 'offering').map((p) => p.queue_entry_id));
        const tried = new Set(
          previous.filter((p) => p.status !== 'offering').map((p) => `${p.queue_entry_id}:${p.job_id}`),
        );
        const openJobs = new Set<string>(
          (
            await trx('jobs')
              .whereIn(
                'id',
                candidates.map((o) => o.job_id),
              )
              .andWhere({ status: 'open' })
              .select('id', 'live_event_id')
          ).map((r: { id: string; live_event_id: string }) => `${r.live_event_id}:${r.id}`),
        );
        // Entries not locked: another transaction holds them (busy: next round) or they stopped waiting (stale).
        const unlockedIds = entryIds.filter((id) => !lockedById.has(id));
        const stillWaiting = new Set<string>(
          unlockedIds.length
            ? (
                await trx('queue_entries')
                  .whereIn('id', unlockedIds)
                  .andWhere('status', 'waiting')
                  .andWhere(notExpired)
                  .select('id')
              ).map((r: { id: string }) => r.id)
            : [],
        );

        const rows: MatchOfferInsert[] = [];
        const turnsBy = new Map<string, number>();
        for (const o of candidates) {
          const eventId = o.live_event_id;
          const event = eventById.get(eventId)!;
          const entry = lockedById.get(o.queue_entry_id);
          if (!entry) {
            if (stillWaiting.has(o.queue_entry_id)) result.busy++;
            else result.stale++;
            continue;
          }
          const mayUse = entry.live_event_id ? entry.live_event_id === eventId : event.visibility === 'open_invite';
          if (
            !mayUse ||
            o.queue_live_event_id !== entry.live_event_id ||
            offering.has(entry.id) ||
            tried.has(`${entry.id}:${o.job_id}`) ||
            blocked.has(`${o.seeker_user_id}:${o.job_id}`) ||
            !openJobs.has(`${eventId}:${o.job_id}`)
          ) {
            result.stale++;
            continue;
          }
          if ((freeBy.get(eventId) ?? 0) <= 0) {
            result.full++;
            continue;
          }
          // Round-robin: the available recruiter with room whose last offer is the oldest (never: first).
          const recruiters = recruitersBy.get(eventId);
          const recruiter = recruiters ? nextRecruiter(recruiters) : null;
          if (recruiters && !recruiter) {
            result.full++;
            continue;
          }
          if (recruiter) {
            const turns = (turnsBy.get(eventId) ?? 0) + 1;
            turnsBy.set(eventId, turns);
            recruiter.free--;
            recruiter.turn = turns;
            await trx('recruiter_availability')
              .where({ live_event_id: eventId, user_id: recruiter.userId })
              .update({ last_offered_at: trx.raw('clock_timestamp()') });
          }
          rows.push({ ...o, recruiter_user_id: recruiter?.userId ?? null });
          offering.add(entry.id);
          freeBy.set(eventId, (freeBy.get(eventId) ?? 0) - 1);
        }
        if (rows.length)
          await trx('match_offers').insert(
            rows.map((r) => ({ ...r, score_breakdown: JSON.stringify(r.score_breakdown) })),
          );
        return { ...result, held: rows.map((r) => r.id) };
      });
    },

    async loadOfferContexts(ids: string[], trx: Knex = knex): Promise<OfferContext[]> {
      if (!ids.length) return [];
      return (
        trx('match_offers as o')
          .join('jobs as j', 'j.id', 'o.job_id')
          .join('live_events as e', 'e.id', 'o.live_event_id')
          .leftJoin('profiles as p', 'p.user_id', 'o.seeker_user_id')
          .leftJoin('queue_entries as q', 'q.id', 'o.queue_entry_id')
          // Names for the match's start summary in the Temporal UI (never e-mail addresses).
          .leftJoin('users as su', 'su.id', 'o.seeker_user_id')
          .leftJoin('users as ru', 'ru.id', 'o.recruiter_user_id')
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
            'o.recruiter_user_id',
            'o.match_score',
            'o.score_breakdown',
            'o.score_version',
            'p.title as seeker_headline',
            trx.raw('coalesce(q.via_agent, false) as seeker_via_agent'),
            'q.agent_identity as seeker_agent_identity',
            'o.created_at',
            trx.raw('coalesce(p.full_name, su.display_name) as seeker_name'),
            'e.company_name',
            'ru.display_name as recruiter_name',
          )
      );
    },

    /**
     * The outcomes of a round's offers in one statement (decision 0236): `started` (the match
     * workflow runs), `refused` (with its reason: the slot is free again) or `touched` (left for the
     * next round, updated_at bumped so it counts as fresh). Only offers still `offering` change, as
     * with `markStarted` / `markRefused` / `touchOffer` one by one.
     */
    async recordOfferOutcomes(
      outcomes: Array<{ id: string; status: 'started' | 'refused' | 'touched'; reason?: string }>,
      trx: Knex = knex,
    ): Promise<void> {
      if (!outcomes.length) return;
      await trx.raw(
        `UPDATE match_offers o
            SET status = CASE WHEN v.status = 'touched' THEN o.status ELSE v.status END,
                refusal_reason = CASE WHEN v.status = 'refused' THEN v.reason ELSE o.refusal_reason END,
                updated_at = now()
           FROM unnest(?::uuid[], ?::text[], ?::text[]) AS v(id, status, reason)
          WHERE o.id = v.id AND o.status = 'offering'`,
        [
          outcomes.map((o) => o.id),
          outcomes.map((o) => o.status),
          outcomes.map((o) => (o.reason === undefined ? null : o.reason.slice(0, 500))) as string[],
        ],
      );
    },

    /**
     * A recruiter of the team accepts a match: its interview slot moves to them (decision 0244), so
     * the slot counts against the interviewer, not the recruiter it was offered to. Under the event's
     * lock, as `holdSlotsOfEvents` counts: at an event with recruiter availability the accepter needs
     * a free slot (offers naming them, being made or started, below their capacity; no row of their
     * own: the smallest capacity, 1); `available: false` only stops new offers, not their own choice.
     * At an event without availability only the event's slots count, and this offer already holds one.
     * Idempotent: an offer already naming the accepter answers ok. No offer (a match not made by the
     * matchmaker): ok, nothing to count.
     */
    async claimOfferForRecruiter(
      matchId: string,
      userId: string,
    ): Promise<{ ok: boolean; active?: number; capacity?: number }> {
      return knex.transaction(async (trx) => {
        const offer: { live_event_id: string; recruiter_user_id: string | null } | undefined = await trx('match_offers')
          .where({ id: matchId })
          .first('live_event_id', 'recruiter_user_id');
        if (!offer || offer.recruiter_user_id === userId) return { ok: true };
        await trx('live_events').where({ id: offer.live_event_id }).forNoKeyUpdate().first('id');
        const rows: Array<{ user_id: string; capacity: number }> = await trx('recruiter_availability')
          .where({ live_event_id: offer.live_event_id })
          .select('user_id', 'capacity');
        if (rows.length) {
          const capacity = rows.find((r) => r.user_id === userId)?.capacity ?? 1;
          const [{ n }] = await trx('match_offers')
            .where({ live_event_id: offer.live_event_id, recruiter_user_id: userId })
            .whereIn('status', ['offering', 'started'])
            .whereNot({ id: matchId })
            .count<{ n: string }[]>({ n: '*' });
          const active = Number(n);
          if (active >= capacity) return { ok: false, active, capacity };
        }
        await trx('match_offers')
          .where({ id: matchId })
          .update({ recruiter_user_id: userId, updated_at: trx.fn.now() });
        return { ok: true };
      });
    },

    /** Per entry, how often its seeker declined for a tunable reason (salary, location) in this entry. */
    async listSeekerDeclineCodes(
      entryIds: string[],
      trx: Knex = knex,
    ): Promise<Array<{ queue_entry_id: string; code: string; n: number }>> {
      if (!entryIds.length) return [];
      const rows = await trx('matches')
        .whereIn('queue_entry_id', entryIds)
        .andWhere({ declined_by_role: 'seeker' })
        .whereIn('decline_reason_code', ['salary', 'location'])
        .groupBy('queue_entry_id', 'decline_reason_code')
        .select('queue_entry_id', 'decline_reason_code as code', trx.raw('count(*)::int as n'));
      return rows.map((r: { queue_entry_id: string; code: string; n: number }) => ({ ...r, n: Number(r.n) }));
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
export type MatchmakingRepository = ReturnType<typeof createMatchmakingRepository>;
