/**
 * The ceiling of a queue join: a workflow whose update answers at once (no activity, no
 * projection). Started by update-with-start exactly as a join starts a queue entry; the run then
 * waits (it is the "one active entry" the real workflow keeps) until the bench's stack is gone.
 * Bundled by bench/suite.ts for a worker on its own task queue.
 */
import { condition, defineUpdate, setHandler } from '@temporalio/workflow';

export const bareJoinUpdate = defineUpdate<{ created: boolean }, [{ agentIdentity: string }]>('bareJoin');

export async function bareJoinWorkflow(): Promise<void> {
  let joins = 0;
  setHandler(bareJoinUpdate, () => ({ created: ++joins === 1 }));
  await condition(() => false);
}
