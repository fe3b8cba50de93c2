import type { FastifyInstance } from 'fastify';
import { html } from '../web/html';
import { fmtDate } from '../web/layout';
import type { MatchView } from './matches-service';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { matchStatusLine } from './match-status-line';

/** The console overview's matches waiting for the recruiter's acceptance (the match pages themselves are /matches/<id>). */
export async function listAwaitingAcceptance(app: FastifyInstance, userId: string): Promise<MatchView[]> {
  const recent = await app.services.matches.list({ userId, limit: 50 });
  return recent.filter((v) => v.match.status === 'matched' && !v.match.recruiter_accepted_at);
}

/** The candidate as every recruiter list names them: name, headline, top skills, agent badge with the agent's identity. */
export const candidateLine = (
  m: Pick<
    MatchWithJob,
    'seeker_name' | 'seeker_headline' | 'seeker_skills' | 'seeker_via_agent' | 'seeker_agent_identity'
  >,
) =>
  html`<strong class="candidate-name">${m.seeker_name ?? 'Candidate'}</strong>${m.seeker_headline ? html` · ${m.seeker_headline}` : ''}${m.seeker_skills?.length ? html` · <span class="hint">${m.seeker_skills.slice(0, 3).join(', ')}</span>` : ''}${m.seeker_via_agent ? html` <span class="badge badge-agent" title="${m.seeker_agent_identity ?? 'an agent'}">joined via agent</span> <span class="hint">${m.seeker_agent_identity ?? ''}</span>` : ''}`;

/** Live (server-sent events refresh it): the count, and a countdown to each acceptance deadline. */
export const awaitingAcceptanceSection = (
  awaiting: MatchView[],
  /** The recruiter looking: each item says to whom it is offered ("Waiting for you and the candidate"). */
  viewerId?: string,
) => html`<section aria-labelledby="await-h" id="awaiting-section" data-live-region>
<h2 id="await-h">Matches waiting for your acceptance (<span data-pending-count>${awaiting.length}</span>)</h2>
${
  awaiting.length
    ? html`<ul>${awaiting.map(
        ({ match: m }) =>
          html`<li data-match-id="${m.id}">${candidateLine(m)} for <a href="/matches/${m.id}">${m.job_title ?? 'Job'}</a> · score ${m.match_score ?? '—'} · accept by ${fmtDate(m.expires_at)}${m.expires_at ? html` (<span class="countdown" data-countdown-to="${m.expires_at.toISOString()}" data-expired-text="time is up">…</span> left)` : ''}${viewerId ? html` · <span class="hint" data-status-line>${matchStatusLine(m, { role: 'recruiter', userId: viewerId })}</span>` : ''}</li>`,
      )}</ul>`
    : html`<p>None right now.</p>`
}
</section>`;
