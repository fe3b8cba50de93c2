import { DEMO_PASSWORD } from '#apps/demo/src/demo-data';
import { redactUrl } from '../stack';
import type { StartContext } from './context';

/** The banner: where everything is, the demo's accounts and a first request to try. */
export function banner(ctx: StartContext): string {
  const { config, infra, demo, receiver, simulator, metricsPorts, traceQueryUrl } = ctx;
  const base = config.publicBaseUrl;
  return [
    '',
    `Job fair is up (ready in ${((Date.now() - ctx.t0) / 1000).toFixed(1)} s).`,
    `  Web app:      ${base}/`,
    `  API:          ${base}/api/v1`,
    `  OpenAPI:      ${base}/api/v1/openapi.json`,
    `  Temporal UI:  ${infra.temporalUiUrl ?? '(external Temporal: see TEMPORAL_UI_URL)'}`,
    `  PostgreSQL:   ${redactUrl(infra.databaseUrl)}`,
    `  Metrics:      http://${config.HOST}:${metricsPorts.api}/metrics (API), ` +
      `http://${config.HOST}:${metricsPorts.worker}/metrics (worker, with the Temporal SDK's)`,
    ...(traceQueryUrl
      ? [`  Traces:       ${traceQueryUrl}/api/traces/<trace_id of a log line> (tsx dev/trace-store.ts show <id>)`]
      : []),
    '',
    `  Live now:     ${demo.events.map((e) => e.company).join(', ')} (${demo.events.length} open-invite events)`,
    `  Webhooks:     ${receiver ? `demo receiver at ${receiver.url} — the ${demo.events[0].company} team is subscribed ` + `(signatures verified; one line per delivery)` : 'no demo receiver (WEBHOOK_ALLOW_LOOPBACK=false)'}`,
    `  Simulator:    ${simulator ? `on — simulated seekers join, recruiters accept (workflow ${simulator.workflowId}; ` + `DEMO_SIMULATION=off stops it)` : 'off (DEMO_SIMULATION=off)'}`,
    '',
    `  Demo seeker    ${demo.seekerEmail} / ${DEMO_PASSWORD}`,
    `    agent token (seeker preset, until ${demo.tokenExpiresAt.slice(0, 10)}): ${demo.seekerToken}`,
    `  Demo recruiter ${demo.recruiterEmail} / ${DEMO_PASSWORD}`,
    `    token (recruiter preset, until ${demo.tokenExpiresAt.slice(0, 10)}): ${demo.recruiterToken}`,
    '',
    simulator
      ? `  Try: curl -s -H "Authorization: Bearer ${demo.seekerToken}" ${base}/api/v1/matches   ` +
        `(Ada's agent has joined ${demo.events[0].slug}; her match appears within seconds — accept ` +
        `it at ${base}/matches)`
      : `  Try: curl -s -X POST -H "Authorization: Bearer ${demo.seekerToken}" -H "content-type: ` +
        `application/json" -d '{"live_event_slug":"${demo.events[0].slug}"}' ${base}/api/v1/queue/join`,
    '  Ctrl-C stops everything.',
    '',
  ].join('\n');
}

/** The Temporal client is closed, then the banner printed. */
export async function printBanner(ctx: StartContext): Promise<void> {
  await ctx.temporal.close();
  console.log(banner(ctx));
}
