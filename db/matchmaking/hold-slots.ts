import type { Knex } from 'knex';
import { readBlockedPairs } from './entry-history';
import type { HoldResult, MatchOfferInsert, MatchOfferStatus } from './matchmaking-rows';
import { nextRecruiter, recruitersOfEvents, type RecruiterTurn } from './recruiter-turns';

type LockedEvent = { id: string; status: string; visibility: string; interview_slots: number };

/** The planned events as locked: their rows, free slots and available recruiters, and the offers that go on. */
interface LockedEvents {
  eventById: Map<string, LockedEvent>;
  recruitersBy: Map<string, RecruiterTurn[]>;
  freeBy: Map<string, number>;
  /** Offers of events that are locked, live and have room. */
  candidates: MatchOfferInsert[];
}

/** The planned entries as locked, and what the statements after the locks read about them. */
interface LockedEntries {
  lockedById: Map<string, { id: string; live_event_id: string | null }>;
  /** Entries with an offer being made (grows as offers are written). */
  offering: Set<string>;
  /** `entryId:jobId` pairs already tried. */
  tried: Set<string>;
  /** `seekerUserId:jobId` pairs never offered again. */
  blocked: Set<string>;
  /** `eventId:jobId` of the open jobs. */
  openJobs: Set<string>;
  /** Entries not locked that still wait (another transaction holds them). */
  stillWaiting: Set<string>;
}

/**
 * Locks the events `FOR NO KEY UPDATE SKIP LOCKED` and counts their free slots; offers of events
 * not locked, not live or full are counted in `result` now (one skipped is `busy` for all its
 * offers, or `stale` when it is no longer live).
 */
async function lockEvents(
  trx: Knex.Transaction,
  groups: Array<[string, MatchOfferInsert[]]>,
  result: HoldResult,
): Promise<LockedEvents> {
  const eventIds = groups.map(([id]) => id);
  const lockedEvents: LockedEvent[] = await trx('live_events')
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
  return { eventById, recruitersBy, freeBy, candidates };
}

/**
 * Locks the planned entries `FOR UPDATE SKIP LOCKED`, then — in statements after the locks — reads
 * the entries' offers, the blocked pairs, the open jobs and which unlocked entries still wait.
 */
async function lockEntries(trx: Knex.Transaction, candidates: MatchOfferInsert[]): Promise<LockedEntries> {
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
      await readBlockedPairs(
        trx,
        candidates.filter((o) => lockedById.has(o.queue_entry_id)).map((o) => o.seeker_user_id),
      )
    ).map((p) => `${p.seeker_user_id}:${p.job_id}`),
  );
  const offering = new Set(previous.filter((p) => p.status === 'offering').map((p) => p.queue_entry_id));
  const tried = new Set(previous.filter((p) => p.status !== 'offering').map((p) => `${p.queue_entry_id}:${p.job_id}`));
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
  return { lockedById, offering, tried, blocked, openJobs, stillWaiting };
}

/**
 * Writes the offers that still hold, per event in plan order up to its free slots (and its
 * available recruiters' room, round-robin); the others are counted in `result`.
 */
async function writeOffers(
  trx: Knex.Transaction,
  candidates: MatchOfferInsert[],
  events: LockedEvents,
  entries: LockedEntries,
  result: HoldResult,
): Promise<MatchOfferInsert[]> {
  const { eventById, recruitersBy, freeBy } = events;
  const { lockedById, offering, tried, blocked, openJobs, stillWaiting } = entries;
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
    await trx('match_offers').insert(rows.map((r) => ({ ...r, score_breakdown: JSON.stringify(r.score_breakdown) })));
  return rows;
}

/** Holding interview slots for a round's planned offers: the only statements of the matchmaker that lock. */
export function createHoldSlotsQueries(knex: Knex) {
  /**
   * `holdSlots` for several events in one short transaction (so a round's planned offers
   * cost a dozen statements in all, not a dozen per event). The same locks and re-checks, taken
   * for every event at once: the event rows `FOR NO KEY UPDATE SKIP LOCKED` (one skipped is
   * `busy` for all its offers, or `stale` when it is no longer live), then the planned entries
   * `FOR UPDATE SKIP LOCKED`, then — in statements after the locks — the entries' offers, the
   * blocked pairs and the open jobs; offers are written per event in plan order up to its free
   * slots (and its available recruiters' room, round-robin). Nothing here waits for a lock.
   */
  const holdSlotsOfEvents = async (groups: Array<[string, MatchOfferInsert[]]>): Promise<HoldResult> => {
    const result: HoldResult = { held: [], busy: 0, full: 0, stale: 0 };
    groups = groups.filter(([, offers]) => offers.length > 0);
    if (!groups.length) return result;
    return knex.transaction(async (trx) => {
      const events = await lockEvents(trx, groups, result);
      if (!events.candidates.length) return result;
      const entries = await lockEntries(trx, events.candidates);
      const rows = await writeOffers(trx, events.candidates, events, entries, result);
      return { ...result, held: rows.map((r) => r.id) };
    });
  };

  return {
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
      return holdSlotsOfEvents([[eventId, offers]]);
    },

    holdSlotsOfEvents,
  };
}
