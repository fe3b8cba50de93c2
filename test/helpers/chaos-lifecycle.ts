import { setTimeout as sleep } from 'node:timers/promises';
import { createHash, randomUUID } from 'node:crypto';
import type { Knex } from 'knex';
import type { Client } from '@temporalio/client';
import { activeAt, readMatch, reconcilePostgresWithTemporal } from './chaos-reconcile';

/**
 * The lifecycle half of the chaos engine (decision 0181): seekers join small-capacity events
 * through the API (keyed), wait for their match, and then accept (both parties, through the web
 * application's use-case), accept late (just at `expires_at`), decline (through the API, keyed) or
 * let the match expire (short acceptance windows); a seeker whose match ended without acceptance
 * leaves the queue. Meanwhile a sampler watches PostgreSQL for over-capacity (more active matches in
 * an event than its interview slots) and for matching gaps (an event with a free slot and a waiting
 * seeker it could be offered, and no new match). Reconciled afterwards: acknowledged joins without
 * an entry (lost), seekers with two entries (duplicated), seekers matched twice at once, and
 * matches accepted after their `expires_at`.
 */
export interface LifecycleSeeker {
  userId: string;
  token: string;
}

export interface LifecycleOptions {
  seekers: LifecycleSeeker[];
  /** Small-capacity live events with open jobs every seeker qualifies for. */
  events: Array<{ id: string; slug: string }>;
  /** The web application's accept (humans only, no API route): the seeker's and then the recruiter's. */
  accept: (match: { id: string; seekerUserId: string; teamId: string }) => Promise<void>;
  /** How long a seeker's lifecycle may take at most (then it counts as gave up). */
  giveUpMs?: number;
  /** A client of the same Temporal: the workflows' own state, for the reconciliation (decision 0203). */
  temporal: Client;
}

/** When the fault struck and when the part was back (null: not yet / no fault). */
export interface FaultWindow {
  at: number | null;
  back: number | null;
}

/** Keyed-retry recovery per kind of operation: from the part being back to the answer (max ms; null: none in flight over the fault). */
export interface RecoveryByKind {
  writes: number | null;
  joins: number | null;
  tests: number | null;
}

export interface LifecycleResult {
  joins: number;
  joinsAcknowledged: number;
  accepted: number;
  lateAcceptsRefused: number;
  declined: number;
  expired: number;
  lost: number;
  duplicated: number;
  gaveUp: number;
  /** Largest (active matches − interview slots) seen in any event, sampled and at the end. */
  overCapacity: number;
  /** Seekers two of whose matches held them at one moment, by Temporal's own transition times (the owner's view; decision 0203). */
  matchedTwice: number;
  /** Samples in which PostgreSQL showed a seeker with two active rows that Temporal did not confirm (projection lag). */
  pgDoublesUnconfirmed: number;
  /** Rows (queue entries, matches) that still disagreed with their workflows after the settle deadline. */
  disagreements: number;
  /** Keyed lifecycle writes (declines, leaves) and joins: from the part being back to their answer (max ms). */
  recoveryWritesMs: number | null;
  recoveryJoinsMs: number | null;
  acceptedAfterExpiry: number;
  longestGapMs: number;
  samples: number;
  /** Keyed attempts answered 5xx or failed on the network (then retried with their key). */
  failedAttempts: number;
}

type Decision = 'accept' | 'late-accept' | 'decline' | 'expire';
const decide = (matchId: string): Decision =>
  (['accept', 'late-accept', 'decline', 'expire'] as const)[createHash('sha256').update(matchId).digest()[0] % 4];

export function startLifecycle(
  o: LifecycleOptions & {
    base: () => string;
    knex: Knex;
    spanMs: number;
    log: (l: string) => void;
    fault: () => FaultWindow;
  },
): Promise<LifecycleResult> {
  const t0 = Date.now();
  const giveUpMs = o.giveUpMs ?? 120_000;
  const r: LifecycleResult = {
    joins: o.seekers.length,
    joinsAcknowledged: 0,
    accepted: 0,
    lateAcceptsRefused: 0,
    declined: 0,
    expired: 0,
    lost: 0,
    duplicated: 0,
    gaveUp: 0,
    overCapacity: 0,
    matchedTwice: 0,
    pgDoublesUnconfirmed: 0,
    disagreements: 0,
    recoveryWritesMs: null,
    recoveryJoinsMs: null,
    acceptedAfterExpiry: 0,
    longestGapMs: 0,
    samples: 0,
    failedAttempts: 0,
  };
  /** Answers of keyed calls that were in flight over the fault: kind and time. */
  const overFault: Array<{ kind: 'join' | 'write'; at: number }> = [];
  const acked = new Set<string>();
  const decisions: Record<Decision, number> = { accept: 0, 'late-accept': 0, decline: 0, expire: 0 };
  let running = true;

  /** A keyed call retried with its key on a network error, 5xx, 409 IDEMPOTENCY_KEY_IN_USE or 429. */
  const keyed = async (
    token: string,
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: any } | null> => {
    const key = randomUUID();
    const started = Date.now();
    const kind = path.endsWith('/queue/join') ? ('join' as const) : ('write' as const);
    let inFlightOverFault = false;
    const answered = (res: { status: number; body: any }) => {
      if (inFlightOverFault) overFault.push({ kind, at: Date.now() });
      return res;
    };
    for (;;) {
      const f = o.fault();
      if (f.at !== null && f.back === null) inFlightOverFault = true;
      try {
        const res = await fetch(`${o.base()}${path}`, {
          method,
          headers: {
            authorization: `Bearer ${token}`,
            'idempotency-key': key,
            ...(body ? { 'content-type': 'application/json' } : {}),
          },
          body: body ? JSON.stringify(body) : undefined,
          signal: AbortSignal.timeout(20_000),
        });
        const json = (await res.json().catch(() => null)) as any;
        if (res.status < 500 && res.status !== 429 && !(res.status === 409 && json?.code === 'IDEMPOTENCY_KEY_IN_USE'))
          return answered({ status: res.status, body: json });
        if (res.status >= 500) r.failedAttempts++;
        inFlightOverFault ||= o.fault().at !== null;
      } catch {
        /* network error: the API is down; retry with the key */
        r.failedAttempts++;
        inFlightOverFault ||= o.fault().at !== null;
      }
      if (Date.now() - started > giveUpMs) return null;
      await sleep(200);
    }
  };
  const get = async (token: string, path: string): Promise<any> => {
    try {
      const res = await fetch(`${o.base()}${path}`, {
        headers: { authorization: `Bearer ${token}` },
        signal: AbortSignal.timeout(10_000),
      });
      return res.status === 200 ? await res.json() : null;
    } catch {
      return null;
    }
  };

  const lifecycle = async (s: LifecycleSeeker, i: number): Promise<void> => {
    const startAt = t0 + Math.floor((i * o.spanMs) / o.seekers.length);
    if (startAt > Date.now()) await sleep(startAt - Date.now());
    const ev = o.events[i % o.events.length];
    const joined = await keyed(s.token, 'POST', '/api/v1/queue/join', { live_event_slug: ev.slug });
    if (!joined) return void r.gaveUp++;
    // A keyed retry whose first attempt joined (its answer lost with a killed API) answers that
    // first answer, 200, even once the entry is matched (decision 0200) — never 409 QUEUE_ENTRY_MATCHED.
    if (joined.status !== 200) throw new Error(`join answered ${joined.status} ${JSON.stringify(joined.body)}`);
    acked.add(s.userId);
    r.joinsAcknowledged++;
    const seen = new Set<string>();
    const deadline = Date.now() + giveUpMs;
    let status: any = null;
    while (Date.now() < deadline) {
      status = (await get(s.token, '/api/v1/queue/status'))?.queue_entry ?? status;
      if (status?.status === 'left' || status?.status === 'expired') return;
      if (status?.status === 'waiting' && (seen.size > 0 || status.match_outlook?.state === 'no_eligible_job')) {
        // Its match ended without an acceptance (or ended before a poll saw it: no job is left to
        // offer it): leave (the same job is never offered again).
        const left = await keyed(s.token, 'POST', '/api/v1/queue/leave');
        if (left && (left.status === 200 || left.status === 404)) return;
      }
      if (status?.status === 'matched' && status.match_id && !seen.has(status.match_id)) {
        const matchId: string = status.match_id;
        seen.add(matchId);
        // The driver's own read of the match; while the app's PostgreSQL is down (the postgres row) it
        // waits for it to come back like every client of it.
        let m: any;
        for (let attempt = 0; ; attempt++) {
          try {
            m = await o.knex('matches').where({ id: matchId }).first('id', 'team_id', 'expires_at');
            break;
          } catch (err) {
            if (attempt > 100) throw err;
            await sleep(300);
          }
        }
        const d = decide(matchId);
        decisions[d]++;
        if (d === 'decline') {
          const res = await keyed(s.token, 'POST', `/api/v1/matches/${matchId}/decline`, { reason: 'chaos: not now' });
          if (res?.status === 200) r.declined++;
        } else if (d === 'accept' || d === 'late-accept') {
          if (d === 'late-accept' && m?.expires_at) {
            // At the edge of the window: an accept landing after expires_at must be refused.
            const wait = new Date(m.expires_at).getTime() - Date.now() - 30;
            if (wait > 0) await sleep(wait);
          }
          for (let attempt = 0; ; attempt++) {
            try {
              await o.accept({ id: matchId, seekerUserId: s.userId, teamId: m.team_id });
              r.accepted++;
              return;
            } catch (err) {
              const e = err as { status?: number; code?: string };
              if (e.status === 409 || e.status === 404) {
                if (d === 'accept') o.log(`lifecycle: accept of ${matchId} refused: ${e.code}`);
                if (d === 'late-accept') r.lateAcceptsRefused++;
                break; // expired (or declined) meanwhile: back to waiting, then leave
              }
              if (attempt > 50) {
                o.log(`lifecycle: accept of ${matchId} still failing: ${(err as Error).message}`);
                break;
              }
              await sleep(300); // a dependency is down: retry (the accept is idempotent)
            }
          }
        } else {
          r.expired++; // let the acceptance window run out
        }
      }
      await sleep(250);
    }
    r.gaveUp++;
    o.log(
      `lifecycle: seeker ${s.userId} gave up: last status ${JSON.stringify(status)}, matches ` +
        `seen ${[...seen].join(', ') || 'none'}`,
    );
  };

  // ---- sampler: over-capacity, seekers matched twice, matching gaps ----
  // Active = holding a slot: accepted, or matched with its window still open. A `matched` row past its
  // expires_at is expired for every purpose (accept refuses it) while the workflow's expiry is being
  // projected; counting it would report projection lag as a double match.
  const ACTIVE = "(m.status = 'accepted' OR (m.status = 'matched' AND m.expires_at > now()))";
  const starvedSince = new Map<string, { since: number; total: number }>();
  const eventIds = o.events.map((e) => e.id);
  const sample = async () => {
    const { rows } = await o.knex.raw<{
      rows: Array<{ id: string; slots: number; active: number; waiting: number; total: number }>;
    }>(
      `SELECT e.id, e.interview_slots AS slots,
         (SELECT count(*)::int FROM matches m WHERE m.live_event_id = e.id AND ${ACTIVE}) AS active,
         (SELECT count(*)::int FROM matches m WHERE m.live_event_id = e.id) AS total,
         (SELECT count(*)::int FROM queue_entries q
            WHERE q.status = 'waiting' AND q.live_event_id = e.id
              AND EXISTS (SELECT 1 FROM jobs j WHERE j.live_event_id = e.id AND j.status = 'open'
                          AND NOT EXISTS (SELECT 1 FROM matches m2 WHERE m2.seeker_user_id = q.user_id AND m2.job_id = j.id))) AS waiting
       FROM live_events e WHERE e.id = ANY(?)`,
      [eventIds],
    );
    const twice = await o.knex.raw<{ rows: Array<{ seeker_user_id: string; ids: string[]; rows: unknown }> }>(
      `SELECT seeker_user_id, array_agg(m.id::text) AS ids, json_agg(json_build_object('id', m.id, 'status', m.status, 'created_at', m.created_at, 'expires_at', m.expires_at, 'declined_at', m.declined_at, 'accepted_at', m.accepted_at, 'updated_at', m.updated_at)) AS rows
         FROM matches m WHERE live_event_id = ANY(?) AND ${ACTIVE} GROUP BY seeker_user_id HAVING count(*) > 1`,
      [eventIds],
    );
    const sampledAt = Date.now();
    for (const d of twice.rows) {
      // PostgreSQL says two active rows: ask the owner. Two matches active in Temporal now were both
      // active at the sample too (a match never returns to active, and both rows existed); otherwise the
      // row is a projection not yet written (decision 0203). Temporal's transition times decide at the end.
      const reads = await Promise.all(
        d.ids.map((id) =>
          readMatch(o.temporal, id).catch((err: Error) => ({ state: null, running: false, error: err.message })),
        ),
      );
      const confirmed = reads.every((x) => x.state && activeAt(x.state, sampledAt));
      if (!confirmed) r.pgDoublesUnconfirmed++;
      o.log(
        `lifecycle: PostgreSQL shows seeker ${d.seeker_user_id} with two active matches ` +
          `${JSON.stringify(d.rows)}; Temporal: ` +
          `${reads.map((x, i) => `${d.ids[i]} ${x.state ? `${x.state.status} created ${x.state.createdAtMs} expires ${x.state.expiresAtMs} declined ${x.state.declinedAtMs} expired ${x.state.expiredAtMs} accepted ${x.state.acceptedAtMs}` : (x.error ?? 'no workflow')}`).join('; ')} ` +
          `→ ${confirmed ? 'CONFIRMED double match' : 'projection lag'}`,
      );
    }
    const now = Date.now();
    for (const e of rows) {
      r.overCapacity = Math.max(r.overCapacity, e.active - e.slots);
      const prev = starvedSince.get(e.id);
      if (e.active < e.slots && e.waiting > 0) {
        // Starved: a free slot and a seeker it could go to. The gap ends with the next new match.
        if (!prev || prev.total !== e.total)
          starvedSince.set(e.id, { since: prev && prev.total === e.total ? prev.since : now, total: e.total });
        const cur = starvedSince.get(e.id)!;
        r.longestGapMs = Math.max(r.longestGapMs, now - cur.since);
      } else {
        starvedSince.delete(e.id);
      }
    }
    r.samples++;
  };
  const sampler = (async () => {
    while (running) {
      await sample().catch(() => undefined); // PostgreSQL down: the gap keeps growing until it is back
      await sleep(250);
    }
  })();

  return (async () => {
    await Promise.all(o.seekers.map((s, i) => lifecycle(s, i)));
    running = false;
    await sampler;
    await sample().catch(() => undefined);
    // ---- reconciliation ----
    const entries: Array<{ user_id: string; n: number }> = await o
      .knex('queue_entries')
      .whereIn(
        'user_id',
        o.seekers.map((s) => s.userId),
      )
      .groupBy('user_id')
      .select('user_id')
      .count({ n: '*' });
    const perUser = new Map(entries.map((e) => [e.user_id, Number(e.n)]));
    for (const id of acked) if (!perUser.get(id)) r.lost++;
    for (const n of perUser.values()) if (n > 1) r.duplicated += n - 1;
    const late = await o
      .knex('matches')
      .whereIn('live_event_id', eventIds)
      .whereNotNull('accepted_at')
      .whereRaw('accepted_at > expires_at')
      .count({ n: '*' });
    r.acceptedAfterExpiry = Number(late[0].n);
    // PostgreSQL against Temporal: every entry and match row against its workflow (decision 0203).
    const rec = await reconcilePostgresWithTemporal({
      knex: o.knex,
      temporal: o.temporal,
      userIds: o.seekers.map((s) => s.userId),
      eventIds,
      settleMs: 60_000,
    });
    r.disagreements = rec.disagreements.length;
    r.matchedTwice = rec.matchedTwice.length;
    for (const d of [...rec.disagreements, ...rec.matchedTwice]) o.log(`lifecycle: ${d}`);
    o.log(
      `lifecycle: reconciled ${rec.entries} entries and ${rec.matches} matches with Temporal in ` +
        `${rec.settledMs} ms: ${rec.disagreements.length} disagreements, ${rec.matchedTwice.length} ` +
        `seekers matched twice`,
    );
    const f = o.fault();
    const rec1 = (kind: 'join' | 'write') => {
      const xs = overFault.filter((x) => x.kind === kind);
      return f.back === null || !xs.length ? null : Math.max(0, ...xs.map((x) => x.at - f.back!));
    };
    r.recoveryJoinsMs = rec1('join');
    r.recoveryWritesMs = rec1('write');
    const outcomes = await o
      .knex('matches')
      .whereIn('live_event_id', eventIds)
      .select('status')
      .count({ n: '*' })
      .groupBy('status');
    o.log(
      `lifecycle: decisions ${JSON.stringify(decisions)}; ${r.joinsAcknowledged}/${r.joins} ` +
        `joins, matches by status ${outcomes.map((x: any) => `${x.status} ${x.n}`).join(', ')}, ` +
        `${r.samples} samples, longest gap ${(r.longestGapMs / 1000).toFixed(1)} s, ` +
        `${Date.now() - t0} ms`,
    );
    return r;
  })();
}
