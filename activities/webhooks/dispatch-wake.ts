import { EventEmitter } from 'node:events';
import pg from 'pg';

export const DISPATCH_CHANNEL = 'webhook_dispatch';

/**
 * How the dispatcher's activity learns of new work without polling (decisions 0195, 0217):
 * - an in-process nudge from the fan-out when both run in one worker (`nudge`);
 * - PostgreSQL NOTIFY on `webhook_dispatch`, sent by a trigger when a first attempt is queued and
 *   delivered at commit, whichever process wrote the row (`listenForDispatch`).
 * Each wake-up bumps a counter; the activity reads it before it asks for work and waits only if it
 * has not moved since, so a wake-up that lands between an empty claim and the wait is never lost.
 * A slow safety poll (WEBHOOK_DISPATCH_POLL_MS) covers a lost notification or a lease running out.
 * One per worker, made by its composition root and shared by the fan-out and the dispatcher.
 */
export interface DispatchWake {
  nudge: () => void;
  /** The wake-up counter: read it before looking for work, pass it to `waitForNudge`. */
  count: () => number;
  /** Resolves on the next nudge after `seen` (at once if one came already) or after `ms`, whichever comes first. */
  waitForNudge: (ms: number, seen?: number) => Promise<void>;
}

export function createDispatchWake(): DispatchWake {
  const wake = new EventEmitter();
  wake.setMaxListeners(0);
  let seq = 0;
  return {
    nudge: () => {
      seq++;
      wake.emit('wake');
    },
    count: () => seq,
    waitForNudge: (ms, seen = seq) =>
      new Promise<void>((resolve) => {
        if (seq !== seen) return resolve();
        const done = () => {
          clearTimeout(timer);
          wake.off('wake', done);
          resolve();
        };
        const timer = setTimeout(done, ms);
        timer.unref();
        wake.on('wake', done);
      }),
  };
}

export interface DispatchListener {
  /** False once the connection has failed: the caller then polls faster. */
  readonly listening: boolean;
  close: () => Promise<void>;
}

/**
 * A connection of its own (not from the pool: it stays open while the activity waits) that
 * LISTENs on `webhook_dispatch` and turns each notification into a nudge of `wake`. Fails soft: if
 * it cannot connect or drops, `listening` is false and the activity falls back to polling.
 */
export async function listenForDispatch(
  connection: pg.ClientConfig,
  wake: Pick<DispatchWake, 'nudge'>,
): Promise<DispatchListener> {
  const client = new pg.Client(connection);
  const state = { listening: false, closed: false };
  client.on('notification', () => wake.nudge());
  client.on('error', () => {
    state.listening = false;
  });
  client.on('end', () => {
    state.listening = false;
  });
  try {
    await client.connect();
    await client.query(`LISTEN ${DISPATCH_CHANNEL}`);
    state.listening = true;
    // Rows queued before LISTEN took effect are found by the claim that follows.
    wake.nudge();
  } catch {
    state.listening = false;
  }
  return {
    get listening() {
      return state.listening;
    },
    close: async () => {
      if (state.closed) return;
      state.closed = true;
      state.listening = false;
      await client.end().catch(() => undefined);
    },
  };
}
