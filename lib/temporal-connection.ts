import { Connection, defaultGrpcRetryOptions, makeGrpcRetryInterceptor, type ConnectionOptions } from '@temporalio/client';

/**
 * A Temporal client connection that can be closed while calls are still retrying.
 *
 * The SDK's gRPC retry interceptor schedules each retry on a timer; if the connection is closed
 * in between, the timer fires on a closed channel and throws ("Channel has been shut down") as
 * an uncaught exception. Here retries stop being scheduled once closing starts, and `close()`
 * waits until the last retry already scheduled has run before closing the channel.
 */
export function createClosableConnection(opts: Omit<ConnectionOptions, 'interceptors'> & { lazy?: boolean }) {
  const defaults = defaultGrpcRetryOptions();
  let closing = false;
  let lastRetryAt = 0;
  const interceptor = makeGrpcRetryInterceptor({
    retryableDecider: (attempt, status) => !closing && defaults.retryableDecider(attempt, status),
    delayFunction: (attempt, status) => {
      const delay = defaults.delayFunction(attempt, status);
      lastRetryAt = Math.max(lastRetryAt, Date.now() + delay + 50);
      return delay;
    },
  });
  const { lazy, ...connectionOptions } = opts;
  const make = () => (lazy ? Connection.lazy({ ...connectionOptions, interceptors: [interceptor] }) : Connection.connect({ ...connectionOptions, interceptors: [interceptor] }));
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

export async function connectClosable(opts: Omit<ConnectionOptions, 'interceptors'>): Promise<{ connection: Connection; close: () => Promise<void> }> {
  const c = createClosableConnection(opts);
  const connection = await c.connection;
  return { connection, close: () => c.close(connection) };
}

export function lazyClosable(opts: Omit<ConnectionOptions, 'interceptors'>): { connection: Connection; close: () => Promise<void> } {
  const c = createClosableConnection({ ...opts, lazy: true });
  const connection = c.connection as Connection;
  return { connection, close: () => c.close(connection) };
}
