import type { FastifyRequest } from 'fastify';
import type { FormBody } from '../../web/core';
import { html, type SafeHtml } from '../../web/html';
import { fmtDate, type FieldErrors } from '../../web/layout';
import { afterInterview } from './after-interview';
import { decisionPanel } from './decision-panel';
import { interviewRoomPanel } from './interview-room-panel';
import type { MatchPageData } from './match-page-data';
import { noShowPanel } from './no-show-panel';

/** What the person re-sees after a form: its errors and input, or the refusal's status. */
export interface MatchPageOptions {
  errors?: FieldErrors | null;
  reason?: string;
  status?: number;
  roomError?: string;
  reportValues?: FormBody;
}

/**
 * The panel of the match's state: the decision while `matched`, the room once `accepted`, the
 * report card after the interview, who did not come after a no-show, else how it ended.
 */
export function statePanel(request: FastifyRequest, d: MatchPageData, userId: string, o: MatchPageOptions): SafeHtml {
  const { m, role } = d;
  if (m.status === 'matched') return decisionPanel(request, m, role, userId, d.interviewerName, o);
  if (m.status === 'accepted') return interviewRoomPanel(request, m, role, userId, d.interviewerName);
  if (m.status === 'completed')
    return html`<p class="panel panel-soft">The interview was completed ${fmtDate(m.completed_at)}.</p>
${afterInterview(
  request,
  {
    m,
    role,
    report: d.report,
    author: d.author,
    seeker: d.seekerUser,
    eventSlug: d.event?.slug ?? null,
    viewer: { userId, interviewerName: d.interviewerName, reportAuthorName: d.reportAuthorName },
  },
  o,
)}`;
  if (m.status === 'no_show') return noShowPanel(request, m, role, userId, d.event);
  return html`<p class="panel panel-soft">${
    m.status === 'declined'
      ? html`Declined by ${m.declined_by_role === role ? 'you' : `the ${m.declined_by_role ?? 'other side'}`} ${fmtDate(m.declined_at)}${m.decline_reason ? html`: “${m.decline_reason}”` : ''}.`
      : html`Nobody accepted before ${fmtDate(m.expires_at)}.`
  }</p>`;
}
