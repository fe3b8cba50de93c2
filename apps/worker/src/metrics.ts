import { CancelledFailure, type Context } from '@temporalio/activity';
import type { ActivityInterceptorsFactory } from '@temporalio/worker';
import { domainMetrics } from '#lib/metrics';

/**
 * Counts every activity execution by type and outcome, and times it: the worker's own view of its
 * work beside the Temporal SDK's metrics (schedule-to-start, task latencies, slots), which the
 * Runtime exports (main.ts). The activity type is a fixed name, so the labels stay bounded.
 */
export const activityMetricsInterceptor: ActivityInterceptorsFactory = (ctx: Context) => ({
  inbound: {
    async execute(input, next) {
      const activity = ctx.info.activityType;
      const end = domainMetrics.activityDuration.startTimer({ activity });
      try {
        const result = await next(input);
        domainMetrics.activityExecutions.inc({ activity, outcome: 'completed' });
        return result;
      } catch (err) {
        const cancelled = err instanceof CancelledFailure || ctx.cancellationSignal.aborted;
        domainMetrics.activityExecutions.inc({ activity, outcome: cancelled ? 'cancelled' : 'failed' });
        throw err;
      } finally {
        end();
      }
    },
  },
});

/** The Temporal SDK's exposition, fetched from its loopback exporter, to append to this process's scrape. */
export function temporalMetricsText(port: number): () => Promise<string> {
  return async () => {
    const res = await fetch(`http://127.0.0.1:${port}/metrics`, { signal: AbortSignal.timeout(2_000) });
    return res.ok ? await res.text() : '';
  };
}
