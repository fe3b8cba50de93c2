import type { FastifyInstance, FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { type QueueEntryView } from './queue-service';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { AppError } from '#lib/errors';
import { currentUser } from '../web/core';
import { html, type SafeHtml } from '../web/html';
import { actionButton, confirmAction, fmtDate, notice, sendPage } from '../web/layout';
import { errorMessage, QUEUE_EXIT_TEXT } from '../web/messages';

/** What the browser sends as the agent identity of a queue entry made in the web app (viaAgent: false). */
export const WEB_AGENT_IDENTITY = 'jobfair/web (browser session)';
/** The page polls queue status this often (the API asks agents for ≥ 5 s; the page follows suit). */
const QUEUE_POLL_MS = 3000;

export interface SeekerQueue {
  v: QueueEntryView | null;
  match: MatchWithJob | null;
  finished: boolean;
}

const matchUrl = (id: string | null) => (id ? `/matches/${id}` : null);

const waitText = (s: number | null) =>
  s === null
    ? 'not known yet'
    : s < 60
      ? 'under a minute'
      : `about ${Math.round(s / 60)} minute${Math.round(s / 60) === 1 ? '' : 's'}`;

/** The seeker's queue box and what it shows, over the app's services: the queue page and each event page render it. */
export function queueBoxes(app: FastifyInstance) {
  const queue = app.services.queue;
  const matchesRepo = app.services.deps.repos.matches;

  /** The seeker's queue box: join button, or live position/wait, or the match link. */
  const queueBox = (
    request: FastifyRequest,
    q: SeekerQueue,
    joinAction: string,
    forEvent: { id: string; slug: string; company: string } | null,
    error?: string,
  ): SafeHtml =>
    html`<div id="queue-box" data-live-region>${notice(request)}${error ? html`<p class="error" role="alert">${error}</p>` : ''}${queueState(request, q, joinAction, forEvent)}</div>`;

  /**
   * The seeker's latest entry and, when it holds a match, that match: an entry whose match was
   * accepted or completed has done its work (the run finished; its status stays `matched`), so
   * the box shows the outcome and "Join again" instead of "You have a match".
   */
  const seekerQueue = async (userId: string): Promise<SeekerQueue> => {
    const v = await queue.status(userId);
    const match =
      v?.entry.status === 'matched' && v.entry.match_id
        ? ((await matchesRepo.findById(v.entry.match_id)) ?? null)
        : null;
    const finished =
      !!v &&
      v.entry.status === 'matched' &&
      (v.entry.ended_at !== null || (match !== null && match.status !== 'matched'));
    return { v, match, finished };
  };

  const outcome = (m: MatchWithJob): SafeHtml =>
    m.status === 'accepted'
      ? html`<h2>Your interview is on</h2><p>Both sides accepted the match for <strong>${m.job_title ?? 'the job'}</strong>. The interview room is open until ${fmtDate(m.interview_ends_at)}.</p><p><a class="btn btn-primary" href="/matches/${m.id}">Go to the interview</a></p><p class="hint">After the interview you can join a queue again.</p>`
      : m.status === 'completed'
        ? html`<h2>Your interview is done</h2><p>Your interview for <strong>${m.job_title ?? 'the job'}</strong> ended ${fmtDate(m.completed_at)}. The recruiter will tell you the next step on <a href="/matches/${m.id}">the match page</a>.</p>`
        : m.status === 'no_show'
          ? html`<h2>No interview took place</h2><p>The match for <strong>${m.job_title ?? 'the job'}</strong> ended as a no-show: ${m.no_show_missing === 'recruiter' ? 'the recruiter did not come to the interview room. It does not count as an interview' : m.no_show_missing === 'seeker' ? 'you did not come to the interview room' : 'neither of you came to the interview room'}. <a href="/matches/${m.id}">See the match</a>.</p>`
          : html`<h2>Your last match ended</h2><p>The match for <strong>${m.job_title ?? 'the job'}</strong> is ${m.status}. <a href="/matches/${m.id}">See the match</a>.</p>`;

  const queueState = (
    request: FastifyRequest,
    q: SeekerQueue,
    joinAction: string,
    forEvent: { id: string; slug: string; company: string } | null,
  ): SafeHtml => {
    const v = q.v;
    const s = request.webSession;
    if (!s) {
      const here = forEvent ? `/events/${forEvent.slug}` : '/queue';
      return html`<div class="panel panel-soft"><p>Sign in as a job seeker to join the queue${forEvent ? html` for ${forEvent.company}` : ''}.</p>
<p class="actions"><a class="btn btn-primary" href="/signup?next=${encodeURIComponent(here)}">Sign up</a> <a class="btn" href="/login?next=${encodeURIComponent(here)}">Sign in</a></p></div>`;
    }
    if (s.user.role !== 'seeker')
      return html`<p class="panel panel-soft">Recruiters do not queue; seekers who join this event are matched with your team's open jobs.</p>`;
    if (q.finished && q.match) {
      const joinAgain = q.match.status !== 'accepted';
      return html`<div class="panel panel-success" role="status" data-queue-outcome="${q.match.status}">${outcome(q.match)}</div>
${joinAgain ? html`<div class="actions">${actionButton(request, joinAction, forEvent ? `Join again for ${forEvent.company}` : 'Join again for any event', { cls: 'btn btn-primary' })}</div>` : ''}`;
    }
    const active = v && (v.entry.status === 'waiting' || (v.entry.status === 'matched' && !q.finished)) ? v : null;
    const sameQueue = active && (forEvent ? active.entry.live_event_id === forEvent.id : true);
    if (active && !sameQueue) {
      return html`<div class="panel panel-soft"><p>You are already in the queue ${active.entry.live_event_slug ? html`for <a href="/events/${active.entry.live_event_slug}">${active.entry.live_event_slug}</a>` : html`for <a href="/queue">any event</a>`}. One queue at a time.</p></div>`;
    }
    if (active) {
      const matched = active.entry.status === 'matched';
      return html`<div id="queue-status" class="status-box" data-status-url="/queue/status.json" data-poll-ms="${QUEUE_POLL_MS}" data-status="${active.entry.status}" aria-live="polite">
  <p>You are in the queue${active.entry.via_agent ? html` <span class="badge badge-agent">joined via agent</span>` : ''}. Status: <strong data-field="status">${active.entry.status}</strong></p>
  <p data-waiting-only${matched ? html` hidden` : ''}><span class="hint">Your position</span> <span class="big-number" data-field="position">${active.position ?? '—'}</span></p>
  <p data-waiting-only${matched ? html` hidden` : ''}><span class="hint">Estimated wait:</span> <span data-field="wait">${waitText(active.estimatedWaitSeconds)}</span></p>
  <p class="hint" data-field="outlook">${active.matchOutlook?.reason ?? ''}</p>
  <p class="hint">This page updates by itself. You can leave it open in a tab; joined ${fmtDate(active.entry.entered_at)}.</p>
</div>
<div id="matched-box" class="panel panel-success" tabindex="-1"${matched ? '' : html` hidden`} role="status">
  <h2>You have a match</h2>
  <p>A recruiter's job fits your profile. Review it and accept before the deadline.</p>
  <p><a id="matched-link" class="btn btn-primary" href="${matchUrl(active.entry.match_id) ?? '#'}">Open the match</a></p>
  <p class="hint">${QUEUE_EXIT_TEXT.matchedHint}</p>
</div>
<div class="actions" id="queue-leave">${
        // Leaving always works: while matched it declines the pending match (said before the button).
        matched
          ? confirmAction(request, '/queue/leave', QUEUE_EXIT_TEXT.leave, {
              consequence: QUEUE_EXIT_TEXT.leaveMatchedConsequence,
              confirmLabel: QUEUE_EXIT_TEXT.leaveMatched,
            })
          : actionButton(request, '/queue/leave', QUEUE_EXIT_TEXT.leave, { cls: 'btn' })
      }</div>`;
    }
    return html`${
      v && v.entry.status === 'left' && v.entry.match_id
        ? html`<p class="hint">${QUEUE_EXIT_TEXT.leftWithMatch} (<a href="/matches/${v.entry.match_id}">see the match</a>).</p>`
        : v && (v.entry.status === 'expired' || v.entry.status === 'left')
          ? html`<p class="hint">Your last queue entry ${v.entry.status === 'expired' ? 'expired' : 'was left'}${v.entry.end_reason ? ` (${v.entry.end_reason})` : ''}.</p>`
          : ''
    }
<div class="actions">${actionButton(request, joinAction, forEvent ? `Join the queue for ${forEvent.company}` : 'Join the queue for any event', { cls: 'btn btn-primary' })}</div>`;
  };

  return { queueBox, seekerQueue };
}

/** The seeker's queue pages: the "any event" queue, joining and leaving it, and the status the queue box polls. */
const queuePages: FastifyPluginAsync = async (app) => {
  const queue = app.services.queue;
  const { queueBox, seekerQueue } = queueBoxes(app);

  const statusJson = (v: QueueEntryView | null) => ({
    queue_entry: v
      ? {
          id: v.entry.id,
          status: v.entry.status,
          live_event_slug: v.entry.live_event_slug,
          position: v.position,
          estimated_wait_seconds: v.estimatedWaitSeconds,
          outlook: v.matchOutlook?.reason ?? '',
          match_id: v.entry.match_id,
          match_url: matchUrl(v.entry.match_id),
        }
      : null,
  });

  const anyQueuePage = async (request: FastifyRequest, reply: FastifyReply, error?: string, status = 200) => {
    const { user } = currentUser(request);
    const q: SeekerQueue =
      user.role === 'seeker' ? await seekerQueue(user.id) : { v: null, match: null, finished: false };
    return sendPage(request, reply, {
      title: 'Queue for any event',
      status,
      body: html`<h1>Queue for any event</h1>
<p class="lead">Join once and be matched with the best-fitting open job of any live event.</p>
${queueBox(request, q, '/queue/join', null, error)}
<p><a href="/">See live events</a> to queue for one company instead.</p>`,
    });
  };

  app.get('/queue', async (request, reply) => anyQueuePage(request, reply));

  app.post('/queue/join', async (request, reply) => {
    const { user } = currentUser(request);
    try {
      await queue.join({ userId: user.id, eventRef: null, agentIdentity: WEB_AGENT_IDENTITY, viaAgent: false });
    } catch (err) {
      if (err instanceof AppError && err.code === 'ONBOARDING_INCOMPLETE')
        return reply.redirect('/onboarding?next=%2Fqueue', 303);
      if (err instanceof AppError && err.status < 500)
        return anyQueuePage(request, reply, errorMessage(err), err.status);
      throw err;
    }
    return reply.redirect('/queue', 303);
  });

  /**
   * The same use-case as POST /api/v1/queue/leave (while matched it declines the pending match);
   * back to the page the seeker came from, which says what happened.
   */
  app.post('/queue/leave', async (request, reply) => {
    const { user } = currentUser(request);
    const latest = await queue.status(user.id);
    let done = '';
    try {
      const v = await queue.leave(user.id);
      done = v.entry.status === 'left' ? (v.entry.match_id ? 'left-queue-declined' : 'left-queue') : '';
    } catch (err) {
      if (!(err instanceof AppError && err.status < 500)) throw err;
    }
    const slug = latest?.entry.live_event_slug;
    const page = slug ? `/events/${encodeURIComponent(slug)}` : '/queue';
    return reply.redirect(done ? `${page}?done=${done}` : page, 303);
  });

  /** What the queue box polls (session-authenticated). */
  app.get('/queue/status.json', async (request) => {
    const { user } = currentUser(request);
    return statusJson(await queue.status(user.id));
  });
};

export default queuePages;
