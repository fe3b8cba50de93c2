import { condition } from '@temporalio/workflow';

/**
 * A workflow's PostgreSQL projection: every state change bumps a version; the main loop writes the
 * projection when the version moved (`pending()` → `project()`); an Update handler answers once
 * its change is projected (`projected()`), so the API reads back what the Update did.
 */
export interface Projection {
  /** The version of the state now: the change a caller may wait for (see `isProjected`). */
  readonly version: number;
  /** Records a change of state; the main loop projects it. */
  changed(): void;
  /** A change is waiting to be projected. */
  pending(): boolean;
  /** The projection covers every change up to `version`. */
  isProjected(version: number): boolean;
  /** Resolves once every change made so far is projected. */
  projected(): Promise<void>;
  /** Writes the state as it is now; the changes made before the write count as projected after it. */
  project(): Promise<void>;
}

/**
 * `write` upserts the search attributes and runs the projection activity. It should return the
 * activity's promise itself (not wrap it in another async function): then awaiting `project()`
 * takes the same steps as awaiting the activity in the workflow body did.
 */
export function createProjection(write: () => Promise<unknown>): Projection {
  let version = 0;
  let projectedVersion = -1;
  return {
    get version() {
      return version;
    },
    changed() {
      version++;
    },
    pending: () => version !== projectedVersion,
    isProjected: (target) => projectedVersion >= target,
    async projected() {
      const target = version;
      await condition(() => projectedVersion >= target);
    },
    async project() {
      const target = version;
      await write();
      projectedVersion = target;
    },
  };
}
