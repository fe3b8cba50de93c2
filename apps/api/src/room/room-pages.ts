import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { verifyRoomToken } from './video-provider';
import { AppError, ForbiddenError, NotFoundError } from '#lib/errors';
import { currentUser, originAllowed } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { fmtDate, sendPage } from '../web/layout';
import type { MatchPartyRole } from '#workflows/matches/contract';
import { UUID_RE } from '#lib/ids';
import { noShowClause } from '../matches/matches-pages';
import type { MatchesService } from '../matches/matches-service';
import { roomIceConfig } from './room-ice';
import { serveSignalSocket, type RoomParty } from './room-signal';
import { roomBody, roomView } from './room-view';

const roomPages: FastifyPluginAsync = async (app) => {
  const matches = app.services.matches;
  /** VIDEO_PROVIDER=livekit: the same page joins a LiveKit room instead (room-livekit.js). */
  const liveKit = app.services.room.liveKit;
  const hub = app.services.room.hub;

  /**
   * Both are in the room: the match workflow starts the interview clock (the first time; a
   * reconnect gets the same clock back), and both pages are told when it started and ends.
   */
  const startClock = async (matchId: string, userId: string): Promise<void> => {
    try {
      const { match: m } = await matches.startInterviewClock({ userId, matchId });
      await hub.broadcast(matchId, {
        type: 'clock',
        started_at: m.interview_started_at?.toISOString() ?? null,
        ends_at: m.interview_ends_at?.toISOString() ?? null,
      });
    } catch (err) {
      // The match moved on (ended meanwhile) or Temporal is unreachable: the room's own deadline stands.
      app.log.warn({ err, matchId }, `room ${matchId}: the interview clock could not be started`);
    }
  };

  /**
   * One party is in the room: the match workflow records the first arrival (a reconnect changes
   * nothing). Whoever has not come by the match's `arrive_by` is a no-show.
   */
  const arrive = async (matchId: string, userId: string): Promise<void> => {
    try {
      await matches.enterRoom({ userId, matchId });
    } catch (err) {
      app.log.warn({ err, matchId }, `room ${matchId}: the arrival could not be recorded`);
    }
  };

  /**
   * The room admits exactly the party its token names, signed in as that user, while the match
   * is accepted. Anything else → 403/404/409 (the URL may have been forwarded to someone else).
   */
  const admit = async (
    request: FastifyRequest<{ Params: { matchId: string }; Querystring: { t?: string } }>,
  ): Promise<RoomParty> => {
    const { user } = currentUser(request);
    const { matchId } = request.params;
    if (!UUID_RE.test(matchId)) throw new NotFoundError('match', matchId);
    const claim = verifyRoomToken(app.appSecret, matchId, String(request.query.t ?? ''));
    if (!claim)
      throw new ForbiddenError(
        'This room link is not valid or has expired. Open the match page to enter the room again.',
        'ROOM_TOKEN_INVALID',
      );
    if (claim.userId !== user.id)
      throw new ForbiddenError(
        'This room link was issued to someone else. Open the match page signed in as yourself.',
        'ROOM_TOKEN_NOT_YOURS',
      );
    return { userId: user.id, role: claim.role, expiresAt: claim.expiresAt };
  };

  const signal = {
    hub,
    log: app.log,
    arrive,
    startClock,
    iceConfig: (matchId: string, party: RoomParty) =>
      roomIceConfig(app.config, { appSecret: app.appSecret, matchId, role: party.role, expiresAt: party.expiresAt }),
  };

  app.get<{ Params: { matchId: string }; Querystring: { t?: string } }>('/rooms/:matchId', async (request, reply) => {
    // The URL carries the room token: the site-wide Referrer-Policy `same-origin` keeps it from
    // other sites (`no-referrer` would make the browser send Origin: null on the room's forms).
    const party = await admit(request);
    const { match: m } = await matches.get({ userId: party.userId, matchId: request.params.matchId });
    if (m.status !== 'accepted') return sendPage(request, reply, closedRoomPage(m, party.role));
    const token = String(request.query.t);
    return sendPage(request, reply, {
      title: 'Interview room',
      scripts: liveKit
        ? ['livekit-client.js', 'room/room-page.js', 'room/room-livekit.js']
        : ['room/room-page.js', 'room/room-peer.js'],
      body: roomBody(
        roomView({
          request,
          match: m,
          matchId: m.id,
          role: party.role,
          token,
          signalPath: `/rooms/${m.id}/signal?t=${encodeURIComponent(token)}`,
          liveKit: !!liveKit,
          connectTimeoutMs: app.config.ROOM_CONNECT_TIMEOUT_MS,
          reconnectGraceMs: app.config.ROOM_RECONNECT_GRACE_MS,
        }),
      ),
    });
  });

  /** Leaving (or the room timer running out): completes the interview (interview.completed). */
  app.post<{ Params: { matchId: string } }>('/rooms/:matchId/complete', async (request, reply) => {
    const { user } = currentUser(request);
    const { matchId } = request.params;
    if (!UUID_RE.test(matchId)) throw new NotFoundError('match', matchId);
    try {
      await matches.completeInterview({ userId: user.id, matchId });
    } catch (err) {
      // Alone in the room: nothing ends (the room stays open; a no-show follows if nobody comes).
      if (err instanceof AppError && err.code === 'INTERVIEW_NOT_STARTED') {
        if ((request.headers.accept ?? '').includes('application/json'))
          return reply.code(409).send({ ok: false, code: err.code, match_url: `/matches/${matchId}` });
        return reply.redirect(`/matches/${matchId}`, 303);
      }
      // Already over (expired room, a race with the other party): the match page tells the state.
      if (!(err instanceof AppError && err.status === 409)) throw err;
    }
    await hub.close(matchId, 'ended');
    // LiveKit: deleting the room disconnects both pages (they go to the match page).
    await liveKit
      ?.close(matchId)
      .catch((err) => app.log.warn({ err, matchId }, `room ${matchId}: LiveKit room not closed`));
    if ((request.headers.accept ?? '').includes('application/json'))
      return { ok: true, match_url: `/matches/${matchId}` };
    return reply.redirect(`/matches/${matchId}?done=interview-ended`, 303);
  });

  if (liveKit) {
    /**
     * LiveKit: what the room page joins with (the server's URL and this party's token), for the
     * party the room token admits while the match is accepted. Asked by the page's script (POST,
     * CSRF-checked), so the token is in no HTML, URL or log.
     */
    app.post<{ Params: { matchId: string }; Querystring: { t?: string } }>(
      '/rooms/:matchId/livekit',
      async (request, reply) => {
        const party = await admit(request);
        const { match: m } = await matches.get({ userId: party.userId, matchId: request.params.matchId });
        if (m.status !== 'accepted')
          throw new AppError(409, 'ROOM_CLOSED', `match ${m.id} is ${m.status}; the room is closed`);
        const joining = await liveKit.join({ matchId: m.id, ...party });
        reply.header('cache-control', 'no-store');
        return {
          ...joining,
          started_at: m.interview_started_at?.toISOString() ?? null,
          ends_at: m.interview_ends_at?.toISOString() ?? null,
        };
      },
    );

    /** LiveKit: the interview clock as the match has it (the page asks when the other person is in). */
    app.get<{ Params: { matchId: string }; Querystring: { t?: string } }>(
      '/rooms/:matchId/clock.json',
      async (request, reply) => {
        const party = await admit(request);
        const { match: m } = await matches.get({ userId: party.userId, matchId: request.params.matchId });
        reply.header('cache-control', 'no-store');
        return {
          status: m.status,
          started_at: m.interview_started_at?.toISOString() ?? null,
          ends_at: m.interview_ends_at?.toISOString() ?? null,
        };
      },
    );
  }

  app.get<{ Params: { matchId: string }; Querystring: { t?: string } }>(
    '/rooms/:matchId/signal',
    {
      websocket: true,
      // Checked before the upgrade: a refused socket gets a plain HTTP error.
      preHandler: async (request) => {
        if (!originAllowed(request, app.config.publicBaseUrl))
          throw new ForbiddenError('Cross-site WebSocket refused', 'ORIGIN_REFUSED');
        const party = await admit(request);
        const { match: m } = await matches.get({ userId: party.userId, matchId: request.params.matchId });
        if (m.status !== 'accepted')
          throw new AppError(409, 'ROOM_CLOSED', `match ${m.id} is ${m.status}; the room is closed`);
        (request as FastifyRequest & { roomParty?: RoomParty }).roomParty = party;
      },
    },
    (socket, request) =>
      serveSignalSocket(
        signal,
        socket,
        request.params.matchId,
        (request as FastifyRequest & { roomParty?: RoomParty }).roomParty!,
      ),
  );
};

type Match = Awaited<ReturnType<MatchesService['get']>>['match'];

/** The room of a match that is not (or no longer) accepted: why it is closed. */
function closedRoomPage(
  m: Match,
  role: MatchPartyRole,
): { title: string; status: number; narrow: boolean; body: SafeHtml } {
  return {
    title: 'Interview room',
    status: 409,
    narrow: true,
    body: html`<h1>The interview room is closed</h1>
<p class="lead">${
      m.status === 'completed'
        ? html`The interview ended ${fmtDate(m.completed_at)}.`
        : m.status === 'no_show'
          ? html`The room closed ${fmtDate(m.no_show_at)}: ${noShowClause(m.no_show_missing, role)}, so there was no interview.`
          : `The match is ${m.status}; the room opens once both sides have accepted.`
    }</p>
<p><a href="/matches/${m.id}">Back to the match</a></p>`,
  };
}

export default roomPages;
