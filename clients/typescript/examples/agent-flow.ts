/**
 * The agent flow with the typed client: discover → search → join → poll → matches.
 *   JOBFAIR_BASE_URL=http://localhost:3000 JOBFAIR_TOKEN=svc_… npx tsx clients/typescript/examples/agent-flow.ts TypeScript,PostgreSQL
 * The token needs queue:read, queue:write and matches:read (the “Agent for a job seeker” preset).
 */
import { createJobfairClient, type JobfairClientOptions } from '../src';

export interface AgentFlowOptions extends JobfairClientOptions {
  skills: string[];
  /**
   * The wait after a status that asks for the short 5 s (`poll_after_seconds`); a longer hint stretches
   * it in proportion, so by default the flow waits exactly what each answer asks. Tests shrink it.
   */
  pollIntervalMs?: number;
  timeoutMs?: number;
  say?: (line: string) => void;
}

export async function runAgentFlow(opts: AgentFlowOptions) {
  const say = opts.say ?? ((l: string) => console.log(l));
  const { api, paginate, must } = createJobfairClient(opts);

  // 1. Discover: which events are live (no token needed).
  const events = [];
  for await (const e of paginate('/api/v1/live-events', { query: { limit: 50 } })) events.push(e);
  say(`${events.length} public live event(s): ${events.map((e) => e.slug).join(', ') || 'none'}`);

  // 2. Search jobs for the human's skills.
  const { jobs } = must(await api.GET('/api/v1/jobs/search', { params: { query: { skills: opts.skills.join(',') } } }));
  if (jobs.length === 0) throw new Error(`no open job matches ${opts.skills.join(', ')}`);
  const best = jobs[0];
  say(`best job: ${best.title} at ${best.company_name} (event ${best.event_slug})`);

  // 3. Join that event's queue; the human follows it at join_url (the match is accepted later, at its details_url).
  const joined = must(await api.POST('/api/v1/queue/join', { body: { live_event_slug: best.event_slug } }));
  say(
    `joined the queue (${joined.status}, position ${joined.position ?? '—'}); the human follows it at: ${joined.join_url}`,
  );

  // 4. Poll the status until matched, as often as each answer says is useful (poll_after_seconds).
  const deadline = Date.now() + (opts.timeoutMs ?? 10 * 60_000);
  const shortMs = opts.pollIntervalMs ?? 5_000;
  let entry = must(await api.GET('/api/v1/queue/status')).queue_entry;
  while (entry?.status === 'waiting') {
    if (Date.now() > deadline) throw new Error('still waiting at the deadline');
    const after = Math.max(5, entry.poll_after_seconds ?? 5);
    await new Promise((r) => setTimeout(r, Math.min((shortMs * after) / 5, Math.max(0, deadline - Date.now()))));
    entry = must(await api.GET('/api/v1/queue/status')).queue_entry;
  }
  if (entry?.status !== 'matched') throw new Error(`the queue entry ended as ${entry?.status ?? 'missing'}`);
  say(`matched: ${entry.match_id}; hand this to the human, who accepts or declines there: ${entry.details_url}`);

  // 5. The match, from the matches list (it can trail the queue status by a moment: both are
  //    projections of workflows, so look again until the deadline).
  const matchId = entry.match_id;
  let match;
  for (;;) {
    match = must(await api.GET('/api/v1/matches')).matches.find((m) => m.id === matchId);
    if (match) break;
    if (Date.now() > deadline) throw new Error(`match ${matchId} is not in the list`);
    await new Promise((r) => setTimeout(r, shortMs));
  }
  say(`match ${match.id}: ${match.status}; the human accepts it in the web app`);
  return { events, jobs, joined, entry, match };
}

if (require.main === module) {
  runAgentFlow({
    baseUrl: process.env.JOBFAIR_BASE_URL ?? 'http://localhost:3000',
    token: process.env.JOBFAIR_TOKEN,
    agentIdentity: 'jobfair/example-agent (dev@jobfair.local)',
    skills: (process.argv[2] ?? 'TypeScript').split(','),
  }).catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
