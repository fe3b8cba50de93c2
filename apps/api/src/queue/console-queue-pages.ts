import type { FastifyInstance } from 'fastify';
import { html } from '../web/html';

const WAITING_LIST_LIMIT = 50;

/** The console event page's view of its queue: who is waiting, with their profiles. */
export async function listWaiting(app: FastifyInstance, eventId: string) {
  return app.services.queue.listWaiting(eventId, WAITING_LIST_LIMIT);
}

export const waitingSection = (
  waiting: Awaited<ReturnType<typeof listWaiting>>,
) => html`<section aria-labelledby="waiting-h" id="waiting-section" data-live-region>
<h2 id="waiting-h">Waiting in the queue (${waiting.length}${waiting.length === WAITING_LIST_LIMIT ? '+' : ''})</h2>
${
  waiting.length
    ? html`<ul>${waiting.map((w) => html`<li><a href="/recruiter/candidates/${w.id}">${w.profile?.full_name ?? 'Candidate'}</a>${w.profile ? html` · ${w.profile.title}${w.profile.skills.length ? ` · ${w.profile.skills.slice(0, 3).join(', ')}` : ''}` : ''}${w.viaAgent ? html` <span class="badge badge-agent" title="${w.agentIdentity ?? 'an agent'}">joined via agent</span> <span class="hint">${w.agentIdentity ?? ''}</span>` : ''}</li>`)}</ul>`
    : html`<p>Nobody is waiting right now.</p>`
}
</section>`;
