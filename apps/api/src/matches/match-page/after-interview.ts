import type { FastifyRequest } from 'fastify';
import type { UserRow } from '#db/accounts/accounts-repository';
import type { InterviewOutcome, InterviewReportRow } from '#db/matches/interview-reports-repository';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { str, type FormBody } from '../../web/core';
import { html, type SafeHtml } from '../../web/html';
import { errorSummary, fmtDate, postForm, radios, textarea, type FieldErrors } from '../../web/layout';
import { MATCH_PEOPLE_WORDS, MATCH_REPORT_LABELS } from '../../web/messages';
import { interviewerId } from '../match-status-line';

const OUTCOME_TEXT: Record<InterviewOutcome, string> = {
  advance: 'Advance: exchange contact details',
  follow_up: 'Follow up later',
  pass: 'Pass',
};
const SCORE_LABELS: Array<[string, string]> = (['fit', 'communication', 'technical'] as const).map((k) => [
  k,
  MATCH_REPORT_LABELS[k],
]);

/** What the page knows after the interview: the report card, its author, the seeker, and names. */
export interface AfterInterview {
  m: MatchWithJob;
  role: 'seeker' | 'recruiter';
  report: InterviewReportRow | undefined;
  author: UserRow | undefined;
  seeker: UserRow | undefined;
  eventSlug: string | null;
  viewer: { userId: string; interviewerName: string | null; reportAuthorName: string | null };
}

/**
 * After the interview: the recruiter's report card (form, or what was saved), the contact details
 * once a recruiter chose "advance", and for the seeker what happens next.
 */
export function afterInterview(
  request: FastifyRequest,
  a: AfterInterview,
  o: { errors?: FieldErrors | null; reportValues?: FormBody },
): SafeHtml {
  // On the team's side the report card is the interviewer's (decision 0249); a teammate reads it.
  const interviewer = interviewerId(a.m);
  const teammate = a.role === 'recruiter' && !!interviewer && interviewer !== a.viewer.userId;
  const contacts = contactDetails(a, teammate);
  if (a.role === 'seeker') return html`${seekerNextStep(a)}${contacts}`;
  if (teammate) return html`${teammateReportCard(a)}${contacts}`;
  return html`${reportCardForm(request, a, o)}${contacts}`;
}

/** Once a recruiter chose "advance": the other side's name and address (a teammate is told who advanced). */
function contactDetails({ m, role, report, author, seeker, viewer }: AfterInterview, teammate: boolean): SafeHtml {
  if (!(report?.outcome === 'advance' && author && seeker)) return html``;
  if (teammate)
    return html`<section class="panel panel-success" aria-labelledby="contact-h" id="contact-details">
<h2 id="contact-h">Contact details</h2>
<p>${MATCH_PEOPLE_WORDS.colleagueAdvanced(viewer.interviewerName ?? 'A colleague')}</p>
</section>`;
  const advanced =
    role === 'seeker'
      ? 'The recruiter would like to continue. Write to them:'
      : report.author_user_id === viewer.userId
        ? 'You chose to advance this candidate. Write to them:'
        : `${viewer.reportAuthorName ?? 'A colleague'} chose to advance this candidate. Write to them:`;
  return html`<section class="panel panel-success" aria-labelledby="contact-h" id="contact-details">
<h2 id="contact-h">Contact details</h2>
<p>${advanced}</p>
<p><strong>${role === 'seeker' ? author.display_name : (m.seeker_name ?? seeker.display_name)}</strong> · <a href="mailto:${role === 'seeker' ? author.email : seeker.email}">${role === 'seeker' ? author.email : seeker.email}</a></p>
<p class="hint">Both of you also received these details by e-mail.</p>
</section>`;
}

/** The seeker's side: what the report card means for them, and the way back to a queue. */
function seekerNextStep({ report, eventSlug }: AfterInterview): SafeHtml {
  const next = !report
    ? 'The recruiter is writing up the interview; this page shows the next step as soon as there is one.'
    : report.outcome === 'advance'
      ? 'Good news: the recruiter wants to continue with you.'
      : report.outcome === 'follow_up'
        ? 'The recruiter will follow up with you.'
        : 'The recruiter decided not to continue this time. Thank you for your time.';
  return html`<section class="panel" aria-labelledby="next-h" id="next-step"><h2 id="next-h">What happens next</h2><p>${next}</p>
<p class="actions"><a class="btn" href="${eventSlug ? `/events/${eventSlug}` : '/queue'}">Join a queue again</a></p></section>`;
}

const saved = (r: InterviewReportRow) =>
  html`fit ${r.fit}/5, communication ${r.communication}/5, technical ${r.technical}/5 — <strong>${OUTCOME_TEXT[r.outcome]}</strong>`;

/** A teammate of the interviewer reads the report card (or that the interviewer writes it). */
function teammateReportCard({ report, viewer }: AfterInterview): SafeHtml {
  const W = MATCH_PEOPLE_WORDS;
  const interviewerName = viewer.interviewerName ?? 'A colleague';
  return html`<section class="panel" aria-labelledby="report-h" id="report-card" data-report-readonly>
<h2 id="report-h">Report card</h2>
<p>${report ? html`${W.colleagueSavedReport(viewer.reportAuthorName ?? interviewerName)} ${fmtDate(report.updated_at)}: ${saved(report)}.` : W.colleagueWritesReport(interviewerName)}</p>
${report?.notes ? html`<p class="hint">Notes: ${report.notes}</p>` : ''}
</section>`;
}

/** The interviewer's report card: scores, next step and notes (what was saved, or the person's input). */
function reportCardForm(
  request: FastifyRequest,
  { m, report }: AfterInterview,
  o: { errors?: FieldErrors | null; reportValues?: FormBody },
): SafeHtml {
  const errors = o.errors ?? null;
  const v = o.reportValues;
  const val = (k: string): string =>
    v ? str(v, k) : report ? String((report as unknown as Record<string, unknown>)[k] ?? '') : '';
  const scoreField = ([name, label]: [string, string]) =>
    radios({
      name,
      label,
      value: val(name),
      errors,
      options: [1, 2, 3, 4, 5].map(
        (n) =>
          [String(n), String(n), n === 1 ? '(weak)' : n === 5 ? '(excellent)' : undefined] as [string, string, string?],
      ),
      inline: true,
    });
  return html`<section class="panel" aria-labelledby="report-h" id="report-card">
<h2 id="report-h">Report card</h2>
${report && !errors ? html`<p class="notice" role="status">Saved ${fmtDate(report.updated_at)}: ${saved(report)}. You can change it below.</p>` : html`<p>Rate the interview and choose the next step. The candidate sees only the next step, never your scores or notes.</p>`}
${errorSummary(errors, {
  fit: 'Fit for the role',
  communication: 'Communication',
  technical: 'Technical skills',
  outcome: 'Next step',
  notes: 'Notes',
})}
${postForm(
  request,
  `/matches/${m.id}/report`,
  html`${SCORE_LABELS.map(scoreField)}
${radios({
  name: 'outcome',
  label: MATCH_REPORT_LABELS.outcome,
  value: val('outcome'),
  errors,
  options: [
    ['advance', OUTCOME_TEXT.advance, 'both of you receive the other’s e-mail address'],
    ['follow_up', OUTCOME_TEXT.follow_up],
    ['pass', OUTCOME_TEXT.pass, 'this pair is not matched again'],
  ],
})}
${textarea({ name: 'notes', label: MATCH_REPORT_LABELS.notes, value: val('notes'), errors, rows: 3 })}
<button type="submit" class="btn btn-primary">Save report card</button>`,
  { label: 'Report card' },
)}
</section>`;
}
