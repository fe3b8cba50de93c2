import {
  Connection,
  defaultGrpcRetryOptions,
  makeGrpcRetryInterceptor,
  type ConnectionOptions,
} from '@temporalio/client';

/**
 * Deadlines on every call of a connection (decision 0180). Without one, a call made while Temporal
 * is down retries UNAVAILABLE for ~20 s in the SDK's retry interceptor, and gRPC's reconnect backoff
 * (up to 120 s) can delay the first call after Temporal is back further still.
 */
export interface CallDeadlineOptions {
  /** Every gRPC call (retries included) fails with DEADLINE_EXCEEDED or its last error after this long,
   * unless the caller set an earlier deadline (`connection.withDeadline`). */
  callTimeoutMs: number;
  /** Longest pause between two retries of one call, and longest reconnect backoff of the channel,
   * so a call still retrying when Temporal comes back succeeds within about this long. */
  maxRetryDelayMs?: number;
}

type ClosableOptions = Omit<ConnectionOptions, 'interceptors'> & { deadlines?: CallDeadlineOptions };

/**
 * A Temporal client connection that can be closed while calls are still retrying.
 *
 * The SDK's gRPC retry interceptor schedules each retry on a timer; if the connection is closed
 * in between, the timer fires on a closed channel and throws ("Channel has been shut down") as
 * an uncaught exception. Here retries stop being scheduled once closing starts, and `close()`
 * waits until the last retry already scheduled has run before closing the channel.
 *
 * With `deadlines`, every call gets a deadline (unless it has an earlier one), retries are not
 * scheduled past it, and retry pauses and channel reconnects are capped at `maxRetryDelayMs`.
 */
export function createClosableConnection(opts: ClosableOptions & { lazy?: boolean }) {
  const defaults = defaultGrpcRetryOptions();
  let closing = false;
  let lastRetryAt = 0;
  const cap = opts.deadlines?.maxRetryDelayMs ?? Infinity;
  const retryInterceptor = (deadlineOf: () => number | null) =>
    makeGrpcRetryInterceptor({
      retryableDecider: (attempt, status) => {
        if (closing || !defaults.retryableDecider(attempt, status)) return false;
        const deadline = deadlineOf();
        // A retry that could only start after the deadline would fail at once: give the caller the
        // real error (UNAVAILABLE…) now instead.
        return deadline === null || Date.now() + Math.min(cap, defaults.delayFunction(attempt, status)) < deadline;
      },
      delayFunction: (attempt, status) => {
        const delay = Math.min(cap, defaults.delayFunction(attempt, status));
        lastRetryAt = Math.max(lastRetryAt, Date.now() + delay + 50);
        return delay;
      },
    });
  const deadlines = opts.deadlines;
  const interceptor: NonNullable<ConnectionOptions['interceptors']>[number] = deadlines
    ? (options, nextCall) => {
        const own = Date.now() + deadlines.callTimeoutMs;
        const given =
          options.deadline === undefined
            ? null
            : options.deadline instanceof Date
              ? options.deadline.getTime()
              : Number(options.deadline);
        const deadline = given !== null && Number.isFinite(given) && given < own ? given : own;
        return retryInterceptor(() => deadline)({ ...options, deadline }, nextCall);
      }
    : retryInterceptor(() => null);
  const { lazy, deadlines: _d, ...connectionOptions } = opts;
  const channelArgs = deadlines?.maxRetryDelayMs
    ? {
        'grpc.initial_reconnect_backoff_ms': Math.min(200, deadlines.maxRetryDelayMs),
        'grpc.max_reconnect_backoff_ms': deadlines.maxRetryDelayMs,
        ...connectionOptions.channelArgs,
      }
    : connectionOptions.channelArgs;
  const full = { ...connectionOptions, channelArgs, interceptors: [interceptor] };
  const make = () => (lazy ? Connection.lazy(full) : Connection.connect(full));
  return {
    connection: make() as Connection | Promise<Connection>,
    async close(connection: Connection): Promise<void> {
      closing = true;
      const wait = lastRetryAt - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
      await connection.close();
    },
  };
}

export async function connectClosable(
  opts: ClosableOptions,
): Promise<{ connection: Connection; close: () => Promise<void> }> {
  const c = createClosableConnection(opts);
  const connection = await c.connection;
  return { connection, close: () => c.close(connection) };
}

export function lazyClosable(opts: ClosableOptions): { connection: Connection; close: () => Promise<void> } {
  const c = createClosableConnection({ ...opts, lazy: true });
  const connection = c.connection as Connection;
  return { connection, close: () => c.close(connection) };
}
