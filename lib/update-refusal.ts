import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { ConflictError, type ErrorDetails } from './errors';

/** A business refusal raised by a workflow's Update validator or handler: an ApplicationFailure with its code as `type`. */
export type UpdateRefusal<T extends string = string> = ApplicationFailure & { readonly type: T };

/**
 * The refusal behind a failed Workflow Update — the non-retryable `ApplicationFailure` a validator
 * or handler threw, carrying a `type` — or null for any other error (not found, timeouts, …),
 * which the caller rethrows or handles itself. With `types`, only a refusal of one of those types
 * counts; the caller then maps it to its AppError (each use-case chooses its own status and details).
 */
export function updateRefusal<T extends string = string>(
  err: unknown,
  types?: readonly T[] | ReadonlySet<string>,
): UpdateRefusal<T> | null {
  const cause = err instanceof WorkflowUpdateFailedError ? err.cause : undefined;
  if (!(cause instanceof ApplicationFailure) || !cause.type) return null;
  if (types && !('has' in types ? types.has(cause.type) : types.includes(cause.type as T))) return null;
  return cause as UpdateRefusal<T>;
}

/**
 * The one mapping of a refused Workflow Update to HTTP: 409 with the refusal's code (its
 * ApplicationFailure type) and message, plus the details the use-case names. Null when `err` is
 * not a refusal of one of `types` (the caller rethrows or handles it).
 */
export function refusalConflict<T extends string>(
  err: unknown,
  types: readonly T[] | ReadonlySet<string>,
  details: (refusal: UpdateRefusal<T>) => ErrorDetails,
  message?: (refusal: UpdateRefusal<T>) => string,
): ConflictError | null {
  const refusal = updateRefusal(err, types);
  return refusal
    ? new ConflictError(refusal.type, message ? message(refusal) : refusal.message, details(refusal))
    : null;
}
