import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { verifyRoomToken } from './video-provider';
import { AppError, ForbiddenError, NotFoundError } from '#lib/errors';
import { currentUser, originAllowed } from '../web/core';
import { html } from '../web/html';
import { confirmAction, fmtDate, sendPage } from '../web/layout';
import type { MatchPartyRole } from '#workflows/matches/contract';
import { UUID_RE } from '#lib/ids';
import { noShowClause } from '../matches/matches-pages';
import { roomIceConfig } from './room-ice';
import { ROOM_CALL_WORDS, ROOM_LIVEKIT_WORDS, ROOM_SCRIPT_WORDS } from '../web/messages';
import { MAX_MESSAGE_BYTES, RELAYED } from './room-hub';

/** How often the room's socket pings its browser (one left unanswered until the next: the socket is dropped). */
const PING_MS = 10_000;

interface Party {
  userId: string;
  role: MatchPartyRole;
  /** When the room URL that admitted this party expires (its TURN credential expires with it). */
  expiresAt: Date;
}

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
  ): Promise<Party> => {
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

  app.get<{ Params: { matchId: string }; Querystring: { t?: string } }>('/rooms/:matchId', async (request, reply) => {
    // The URL carries the room token: the site-wide Referrer-Policy `same-origin` keeps it from
    // other sites (`no-referrer` would make the browser send Origin: null on the room's forms).
    const party = await admit(request);
    const { match: m } = await matches.get({ userId: party.userId, matchId: request.params.matchId });
    if (m.status !== 'accepted') {
      return sendPage(request, reply, {
        title: 'Interview room',
        status: 409,
        narrow: true,
        body: html`<h1>The interview room is closed</h1>
<p class="lead">${
          m.status === 'completed'
            ? html`The interview ended ${fmtDate(m.completed_at)}.`
            : m.status === 'no_show'
              ? html`The room closed ${fmtDate(m.no_show_at)}: ${noShowClause(m.no_show_missing, party.role)}, so there was no interview.`
              : `The match is ${m.status}; the room opens once both sides have accepted.`
        }</p>
<p><a href="/matches/${m.id}">Back to the match</a></p>`,
      });
    }
    const wsPath = `/rooms/${m.id}/signal?t=${encodeURIComponent(String(request.query.t))}`;
    // Names on the tiles: the candidate's profile name; the match's recruiter, the one who accepted
    // and alone enters the room on the team's side (decision 0244), else "the recruiter".
    const seekerName = m.seeker_name ?? 'The candidate';
    const recruiterName =
      party.role === 'recruiter'
        ? (request.webSession?.user.display_name ?? 'Recruiter')
        : (m.recruiter_name ?? 'The recruiter');
    const myName = party.role === 'seeker' ? seekerName : recruiterName;
    const otherName = party.role === 'seeker' ? `${recruiterName} (recruiter)` : `${seekerName} (candidate)`;
    // With no-shows on (arrive_by), ending is for an interview that has started: alone in the room
    // one can only step out; whoever has not come by arrive_by makes the match a no-show.
    const waitForOther = m.arrive_by !== null && m.interview_started_at === null;
    const otherWho = party.role === 'seeker' ? 'the recruiter' : 'the candidate';
    return sendPage(request, reply, {
      title: 'Interview room',
      scripts: liveKit ? ['livekit-client.js', 'room/room-livekit.js'] : ['room/room-peer.js'],
      body: html`<div class="room" id="room"${liveKit ? html` data-engine="livekit" data-join-path="/rooms/${m.id}/livekit?t=${encodeURIComponent(String(request.query.t))}"` : ''} data-signal-path="${wsPath}" data-role="${party.role}" data-ends-at="${m.interview_ends_at?.toISOString() ?? ''}" data-started-at="${m.interview_started_at?.toISOString() ?? ''}" data-complete-action="/rooms/${m.id}/complete" data-match-url="/matches/${m.id}" data-match-id="${m.id}" data-arrive-by="${waitForOther ? m.arrive_by!.toISOString() : ''}" data-connect-timeout-ms="${app.config.ROOM_CONNECT_TIMEOUT_MS}" data-reconnect-grace-ms="${app.config.ROOM_RECONNECT_GRACE_MS}" data-connection-state="new" data-words="${JSON.stringify(ROOM_SCRIPT_WORDS)}">
<h1>Interview: ${m.job_title ?? 'job'}</h1>
<section class="panel precheck" id="precheck" aria-labelledby="precheck-h" data-precheck-state="checking">
  <h2 id="precheck-h">Before you join: camera and microphone</h2>
  <p id="precheck-status" role="status" aria-live="polite">Asking your browser for the camera and microphone…</p>
  <div class="precheck-grid">
    <figure class="preview"><video id="preview-video" autoplay playsinline muted aria-label="Preview of your camera"></video><figcaption>Your preview (only you see it)</figcaption></figure>
    <div>
      <div class="field"><label for="camera-select">Camera</label><select id="camera-select" disabled><option value="">No camera</option></select></div>
      <div class="field"><label for="mic-select">Microphone</label><select id="mic-select" disabled><option value="">No microphone</option></select></div>
      <div class="field"><label for="mic-level">Microphone level</label><meter id="mic-level" min="0" max="1" low="0.05" value="0">silent</meter><p class="hint">Say something: the bar should move.</p></div>
    </div>
  </div>
  <p class="actions"><button type="button" class="btn btn-primary" id="join-room">Join the interview</button> <a class="btn" href="/matches/${m.id}">Back to the match</a></p>
</section>
<div id="in-call" hidden>
<p class="room-status" role="status" aria-live="polite"><span id="room-status-text">Connecting…</span></p>
<p class="hint room-path" id="room-path" hidden><span data-path="direct" hidden>${ROOM_CALL_WORDS.pathDirect}</span><span data-path="relayed" hidden>${ROOM_CALL_WORDS.pathRelayed}</span>${liveKit ? html`<span data-path="server" hidden>${ROOM_LIVEKIT_WORDS.pathServer}</span>` : ''}</p>
<p class="hint" id="room-reconnecting" hidden>${ROOM_CALL_WORDS.reconnecting}</p>
<section class="panel room-nopath" id="room-nopath" role="alert" aria-labelledby="room-nopath-h" hidden>
  <h2 id="room-nopath-h">${(liveKit ? ROOM_LIVEKIT_WORDS : ROOM_CALL_WORDS).noPathTitle}</h2>
  <p>${(liveKit ? ROOM_LIVEKIT_WORDS : ROOM_CALL_WORDS).noPathLead}</p>
  <ul>${(liveKit ? ROOM_LIVEKIT_WORDS : ROOM_CALL_WORDS).noPathTries.map((t) => html`<li>${t}</li>`)}</ul>
  <p><button type="button" class="btn btn-primary" id="room-retry">${ROOM_CALL_WORDS.noPathRetry}</button></p>
</section>
<div class="room-clock" id="room-clock" data-clock-state="${m.interview_started_at ? 'running' : 'waiting'}">
  <p><span class="clock-label">Interview clock:</span> <span class="timer" id="room-elapsed" aria-live="off">${m.interview_started_at ? '…' : 'not started'}</span>
  <span class="clock-left" id="room-left-wrap"${m.interview_started_at ? '' : html` hidden`}>· <span class="timer" id="room-timer" aria-live="off">—</span> left</span></p>
  <p class="hint" id="room-clock-hint">${
    m.interview_started_at
      ? html`Started ${fmtDate(m.interview_started_at)}; the interview ends ${fmtDate(m.interview_ends_at)}.`
      : waitForOther
        ? html`The clock starts when you are both in the room. If ${otherWho} has not come by ${fmtDate(m.arrive_by)}, the match ends as a no-show: it does not count as an interview${party.role === 'seeker' ? ', and you can go back to the queue' : ''}.`
        : html`The clock starts when you are both in the room; until then the room stays open until ${fmtDate(m.interview_ends_at)}.`
  }</p>
</div>
<div class="videos">
  <figure><video id="remote-video" autoplay playsinline aria-label="${otherName}"></video><figcaption>${otherName} <span class="badge badge-off" id="remote-cam-off" hidden>camera off</span> <span class="badge badge-off" id="remote-mic-off" hidden>muted</span></figcaption></figure>
  <figure><video id="local-video" autoplay playsinline muted aria-label="You (${myName})"></video><figcaption>You (${myName}) <span class="badge badge-off" id="local-cam-off" hidden>camera off</span> <span class="badge badge-off" id="local-mic-off" hidden>muted</span></figcaption></figure>
</div>
<div class="room-controls" role="group" aria-label="Call controls">
  <button type="button" class="btn" id="toggle-camera" aria-pressed="false">${ROOM_SCRIPT_WORDS.cameraOff}</button>
  <button type="button" class="btn" id="toggle-mic" aria-pressed="false">${ROOM_SCRIPT_WORDS.micOff}</button>
  <a class="btn" href="/matches/${m.id}">Step out</a>
  <span id="end-control"${waitForOther ? html` hidden` : ''}>${confirmAction(
    request,
    `/rooms/${m.id}/complete`,
    'End the interview',
    {
      consequence: 'This ends the interview for both of you and closes the room. To come back later instead, step out.',
      confirmLabel: 'Yes, end the interview for both',
    },
  )}</span>
</div>
${waitForOther ? html`<p class="hint" id="end-hint">You can end the interview once you are both here. Until then, step out to leave the room open.</p>` : ''}
<p class="hint">Stepping out keeps the room open (the clock keeps running once it started); you can come back from the match page. ${liveKit ? ROOM_LIVEKIT_WORDS.howItRuns : 'The call runs between your browsers (peer to peer, through our relay only when your networks need it); nothing is recorded.'}</p>
</div>
</div>`,
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
        (request as FastifyRequest & { roomParty?: Party }).roomParty = party;
      },
    },
    (socket, request) => {
      const party = (request as FastifyRequest & { roomParty?: Party }).roomParty!;
      const matchId = request.params.matchId;
      // The page says `bye` when it leaves (step out, reload, tab closed): gone at once, not away.
      let bye = false;
      socket.on('message', (data, isBinary) => {
        if (isBinary) return;
        const text = data.toString();
        if (text.length > MAX_MESSAGE_BYTES) return;
        let msg: { type?: unknown };
        try {
          msg = JSON.parse(text);
        } catch {
          return;
        }
        if (msg?.type === 'bye') bye = true;
        else if (typeof msg?.type === 'string' && RELAYED.has(msg.type)) hub.relay(matchId, party.role, socket, msg);
      });
      // A person whose network vanished sends no close: a ping unanswered for a round is a drop.
      let alive = true;
      socket.on('pong', () => (alive = true));
      const ping = setInterval(() => {
        if (!alive) return socket.terminate();
        alive = false;
        socket.ping();
      }, PING_MS);
      ping.unref();
      socket.on('close', () => {
        clearInterval(ping);
        hub
          .leave(matchId, party.role, socket, bye)
          .catch((err) => app.log.warn({ err, matchId }, `room ${matchId}: leaving could not be recorded`));
      });
      // The peer connection's ICE servers, with this party's TURN credential (expiring with its
      // room URL): on this socket only, before `start`, so neither the HTML nor a log carries it.
      socket.send(
        JSON.stringify({
          type: 'ice',
          ...roomIceConfig(app.config, {
            appSecret: app.appSecret,
            matchId,
            role: party.role,
            expiresAt: party.expiresAt,
          }),
        }),
      );
      void arrive(matchId, party.userId);
      hub.join(matchId, party.role, socket).then(
        (both) => (both ? startClock(matchId, party.userId) : undefined),
        (err) => {
          app.log.warn({ err, matchId }, `room ${matchId}: joining failed`);
          socket.close(1011, 'try again');
        },
      );
    },
  );
};

export default roomPages;
