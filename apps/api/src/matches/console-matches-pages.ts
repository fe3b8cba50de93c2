import type { FastifyInstance } from 'fastify';
import { html } from '../web/html';
import { fmtDate } from '../web/layout';
import type { MatchView } from './matches-service';

/** The console overview's matches waiting for the recruiter's acceptance (the match pages themselves are /matches/<id>). */
export async function listAwaitingAcceptance(app: FastifyInstance, userId: string): Promise<MatchView[]> {
  const recent = await app.services.matches.list({ userId, limit: 50 });
  return recent.filter((v) => v.match.status === 'matched' && !v.match.recruiter_accepted_at);
}

export const awaitingAcceptanceSection = (awaiting: MatchView[]) => html`<section aria-labelledby="await-h">
<h2 id="await-h">Matches waiting for your acceptance (${awaiting.length})</h2>
${
  awaiting.length
    ? html`<ul>${awaiting.map(
        ({ match: m }) =>
          html`<li><a href="/matches/${m.id}">${m.job_title ?? 'Job'}</a> · score ${m.match_score ?? '—'}${m.seeker_via_agent ? html` <span class="badge badge-agent">joined via agent</span>` : ''} · accept by ${fmtDate(m.expires_at)}</li>`,
      )}</ul>`
    : html`<p>None right now.</p>`
}
</section>`;
