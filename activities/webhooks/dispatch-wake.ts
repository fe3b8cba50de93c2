import { EventEmitter } from 'node:events';

/**
 * In-process nudge from the fan-out to the dispatcher's activity when both run in one worker
 * (decision 0195): the dispatcher polls PostgreSQL every DISPATCH_POLL_MS anyway, so a fan-out in
 * another process (or a lost nudge) costs at most that much latency, never a delivery.
 */
const wake = new EventEmitter();
wake.setMaxListeners(0);

export const nudgeDispatcher = () => {
  wake.emit('wake');
};

/** Resolves on the next nudge or after `ms`, whichever comes first. */
export const waitForNudge = (ms: number) =>
  new Promise<void>((resolve) => {
    const done = () => {
      clearTimeout(timer);
      wake.off('wake', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    timer.unref();
    wake.on('wake', done);
  });
