import { WorkflowUpdateFailedError } from '@temporalio/client';
import { ApplicationFailure, WorkflowNotFoundError } from '@temporalio/common';
import { refusalConflict, updateRefusal } from './update-refusal';
import { ConflictError } from './errors';

const failed = (cause: Error | undefined) => new WorkflowUpdateFailedError('Workflow Update failed', cause);

describe('updateRefusal', () => {
  it('returns the typed ApplicationFailure behind a failed Update, details included', () => {
    const cause = ApplicationFailure.nonRetryable('entry is matched', 'QUEUE_ENTRY_NOT_WAITING', { queueId: 'q1' });
    const refusal = updateRefusal(failed(cause));
    expect(refusal).toBe(cause);
    expect(refusal?.type).toBe('QUEUE_ENTRY_NOT_WAITING');
    expect(refusal?.details).toEqual([{ queueId: 'q1' }]);
  });

  it('filters by the listed types (array or set)', () => {
    const err = failed(ApplicationFailure.nonRetryable('gone', 'WEBHOOK_DELETED'));
    expect(updateRefusal(err, ['WEBHOOK_DELETED'])?.type).toBe('WEBHOOK_DELETED');
    expect(updateRefusal(err, new Set(['WEBHOOK_DELETED']))?.type).toBe('WEBHOOK_DELETED');
    expect(updateRefusal(err, ['QUEUE_ENTRY_ENDED'])).toBeNull();
    expect(updateRefusal(err, new Set(['EVENT_NOT_LIVE']))).toBeNull();
  });

  it('is null for anything that is not a typed refusal of an Update', () => {
    const typed = ApplicationFailure.nonRetryable('refused', 'EVENT_NOT_LIVE');
    expect(updateRefusal(typed)).toBeNull(); // not wrapped in a failed Update
    expect(updateRefusal(failed(new ApplicationFailure('no type')))).toBeNull();
    expect(updateRefusal(failed(new Error('plain')))).toBeNull();
    expect(updateRefusal(failed(undefined))).toBeNull();
    expect(updateRefusal(new WorkflowNotFoundError('not found', 'wf', undefined))).toBeNull();
    expect(updateRefusal(undefined)).toBeNull();
  });
});

describe('refusalConflict', () => {
  it('maps a listed refusal to 409 with its code, its message and the use-case details', () => {
    const err = failed(
      ApplicationFailure.nonRetryable('match m1 is declined', 'MATCH_NOT_DECLINABLE', { status: 'declined' }),
    );
    const conflict = refusalConflict(err, ['MATCH_NOT_DECLINABLE'], (r) => ({
      status: (r.details?.[0] as { status: string }).status,
    }));
    expect(conflict).toBeInstanceOf(ConflictError);
    expect(conflict).toMatchObject({
      status: 409,
      code: 'MATCH_NOT_DECLINABLE',
      message: 'match m1 is declined',
      details: { status: 'declined' },
    });
  });

  it('may word the message for people, and is null for other errors', () => {
    const err = failed(ApplicationFailure.nonRetryable('entry is matched', 'QUEUE_ENTRY_NOT_WAITING'));
    expect(
      refusalConflict(
        err,
        ['QUEUE_ENTRY_NOT_WAITING'],
        () => ({}),
        () => 'Only a waiting entry can leave',
      )?.message,
    ).toBe('Only a waiting entry can leave');
    expect(refusalConflict(err, ['EVENT_NOT_LIVE'], () => ({}))).toBeNull();
    expect(refusalConflict(new Error('boom'), ['QUEUE_ENTRY_NOT_WAITING'], () => ({}))).toBeNull();
  });
});
