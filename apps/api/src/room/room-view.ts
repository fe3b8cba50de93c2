import type { FastifyRequest } from 'fastify';
import type { MatchPartyRole } from '#workflows/matches/contract';
import type { MatchesService } from '../matches/matches-service';
import { html, type SafeHtml } from '../web/html';
import { confirmAction, fmtDate } from '../web/layout';
import { ROOM_CALL_WORDS, ROOM_LIVEKIT_WORDS, ROOM_SCRIPT_WORDS } from '../web/messages';

type Match = Awaited<ReturnType<MatchesService['get']>>['match'];

/** What the open room page shows one party: the match, who is who, and how the page's script connects. */
export interface RoomView {
  request: FastifyRequest;
  match: Match;
  matchId: string;
  role: MatchPartyRole;
  /** The room token of the URL, passed on to the signalling socket and the LiveKit join. */
  token: string;
  signalPath: string;
  /** VIDEO_PROVIDER=livekit: the page joins a LiveKit room (room-livekit.js). */
  liveKit: boolean;
  myName: string;
  otherName: string;
  /** With no-shows on (arrive_by), ending is for an interview that has started. */
  waitForOther: boolean;
  otherWho: string;
  connectTimeoutMs: number;
  reconnectGraceMs: number;
}

/** The names on the tiles, and who the other side is, for this party. */
export function roomView(o: Omit<RoomView, 'myName' | 'otherName' | 'waitForOther' | 'otherWho'>): RoomView {
  const m = o.match;
  // Names on the tiles: the candidate's profile name; the match's recruiter, the one who accepted
  // and alone enters the room on the team's side (decision 0244), else "the recruiter".
  const seekerName = m.seeker_name ?? 'The candidate';
  const recruiterName =
    o.role === 'recruiter'
      ? (o.request.webSession?.user.display_name ?? 'Recruiter')
      : (m.recruiter_name ?? 'The recruiter');
  return {
    ...o,
    myName: o.role === 'seeker' ? seekerName : recruiterName,
    otherName: o.role === 'seeker' ? `${recruiterName} (recruiter)` : `${seekerName} (candidate)`,
    // Alone in the room one can only step out; whoever has not come by arrive_by makes the match a no-show.
    waitForOther: m.arrive_by !== null && m.interview_started_at === null,
    otherWho: o.role === 'seeker' ? 'the recruiter' : 'the candidate',
  };
}

/**
 * The open room: the pre-join check, then the call (status, path, no-path help, the clock, the
 * two tiles, the controls). The page's script reads its settings from `#room`'s data attributes.
 */
export function roomBody(v: RoomView): SafeHtml {
  return html`${roomOpening(v)}
${precheckSection(v)}
<div id="in-call" hidden>
${callStatus(v)}
${clockPanel(v)}
${videoTiles(v)}
${callControls(v)}
${endHint(v)}
${howItRuns(v)}
</div>
</div>`;
}

const roomOpening = (
  v: RoomView,
): SafeHtml => html`<div class="room" id="room"${v.liveKit ? html` data-engine="livekit" data-join-path="/rooms/${v.matchId}/livekit?t=${encodeURIComponent(v.token)}"` : ''} data-signal-path="${v.signalPath}" data-role="${v.role}" data-ends-at="${v.match.interview_ends_at?.toISOString() ?? ''}" data-started-at="${v.match.interview_started_at?.toISOString() ?? ''}" data-complete-action="/rooms/${v.matchId}/complete" data-match-url="/matches/${v.matchId}" data-match-id="${v.matchId}" data-arrive-by="${v.waitForOther ? v.match.arrive_by!.toISOString() : ''}" data-connect-timeout-ms="${v.connectTimeoutMs}" data-reconnect-grace-ms="${v.reconnectGraceMs}" data-connection-state="new" data-words="${JSON.stringify(ROOM_SCRIPT_WORDS)}">
<h1>Interview: ${v.match.job_title ?? 'job'}</h1>`;

const precheckSection = (
  v: RoomView,
): SafeHtml => html`<section class="panel precheck" id="precheck" aria-labelledby="precheck-h" data-precheck-state="checking">
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
  <p class="actions"><button type="button" class="btn btn-primary" id="join-room">Join the interview</button> <a class="btn" href="/matches/${v.matchId}">Back to the match</a></p>
</section>`;

const callStatus = (
  v: RoomView,
): SafeHtml => html`<p class="room-status" role="status" aria-live="polite"><span id="room-status-text">Connecting…</span></p>
<p class="hint room-path" id="room-path" hidden><span data-path="direct" hidden>${ROOM_CALL_WORDS.pathDirect}</span><span data-path="relayed" hidden>${ROOM_CALL_WORDS.pathRelayed}</span>${v.liveKit ? html`<span data-path="server" hidden>${ROOM_LIVEKIT_WORDS.pathServer}</span>` : ''}</p>
<p class="hint" id="room-reconnecting" hidden>${ROOM_CALL_WORDS.reconnecting}</p>
<section class="panel room-nopath" id="room-nopath" role="alert" aria-labelledby="room-nopath-h" hidden>
  <h2 id="room-nopath-h">${(v.liveKit ? ROOM_LIVEKIT_WORDS : ROOM_CALL_WORDS).noPathTitle}</h2>
  <p>${(v.liveKit ? ROOM_LIVEKIT_WORDS : ROOM_CALL_WORDS).noPathLead}</p>
  <ul>${(v.liveKit ? ROOM_LIVEKIT_WORDS : ROOM_CALL_WORDS).noPathTries.map((t) => html`<li>${t}</li>`)}</ul>
  <p><button type="button" class="btn btn-primary" id="room-retry">${ROOM_CALL_WORDS.noPathRetry}</button></p>
</section>`;

const clockPanel = (
  v: RoomView,
): SafeHtml => html`<div class="room-clock" id="room-clock" data-clock-state="${v.match.interview_started_at ? 'running' : 'waiting'}">
  <p><span class="clock-label">Interview clock:</span> <span class="timer" id="room-elapsed" aria-live="off">${v.match.interview_started_at ? '…' : 'not started'}</span>
  <span class="clock-left" id="room-left-wrap"${v.match.interview_started_at ? '' : html` hidden`}>· <span class="timer" id="room-timer" aria-live="off">—</span> left</span></p>
  <p class="hint" id="room-clock-hint">${
    v.match.interview_started_at
      ? html`Started ${fmtDate(v.match.interview_started_at)}; the interview ends ${fmtDate(v.match.interview_ends_at)}.`
      : v.waitForOther
        ? html`The clock starts when you are both in the room. If ${v.otherWho} has not come by ${fmtDate(v.match.arrive_by)}, the match ends as a no-show: it does not count as an interview${v.role === 'seeker' ? ', and you can go back to the queue' : ''}.`
        : html`The clock starts when you are both in the room; until then the room stays open until ${fmtDate(v.match.interview_ends_at)}.`
  }</p>
</div>`;

const videoTiles = (v: RoomView): SafeHtml => html`<div class="videos">
  <figure><video id="remote-video" autoplay playsinline aria-label="${v.otherName}"></video><figcaption>${v.otherName} <span class="badge badge-off" id="remote-cam-off" hidden>camera off</span> <span class="badge badge-off" id="remote-mic-off" hidden>muted</span></figcaption></figure>
  <figure><video id="local-video" autoplay playsinline muted aria-label="You (${v.myName})"></video><figcaption>You (${v.myName}) <span class="badge badge-off" id="local-cam-off" hidden>camera off</span> <span class="badge badge-off" id="local-mic-off" hidden>muted</span></figcaption></figure>
</div>`;

const callControls = (v: RoomView): SafeHtml => html`<div class="room-controls" role="group" aria-label="Call controls">
  <button type="button" class="btn" id="toggle-camera" aria-pressed="false">${ROOM_SCRIPT_WORDS.cameraOff}</button>
  <button type="button" class="btn" id="toggle-mic" aria-pressed="false">${ROOM_SCRIPT_WORDS.micOff}</button>
  <a class="btn" href="/matches/${v.matchId}">Step out</a>
  <span id="end-control"${v.waitForOther ? html` hidden` : ''}>${confirmAction(
    v.request,
    `/rooms/${v.matchId}/complete`,
    'End the interview',
    {
      consequence: 'This ends the interview for both of you and closes the room. To come back later instead, step out.',
      confirmLabel: 'Yes, end the interview for both',
    },
  )}</span>
</div>`;

const endHint = (v: RoomView): SafeHtml | string =>
  v.waitForOther
    ? html`<p class="hint" id="end-hint">You can end the interview once you are both here. Until then, step out to leave the room open.</p>`
    : '';

const howItRuns = (v: RoomView): SafeHtml =>
  html`<p class="hint">Stepping out keeps the room open (the clock keeps running once it started); you can come back from the match page. ${v.liveKit ? ROOM_LIVEKIT_WORDS.howItRuns : 'The call runs between your browsers (peer to peer, through our relay only when your networks need it); nothing is recorded.'}</p>`;
