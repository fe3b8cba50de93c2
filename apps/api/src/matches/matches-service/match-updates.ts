import { WorkflowExecutionAlreadyStartedError, WorkflowNotFoundError } from '@temporalio/client';
import type { UpdateDefinition } from '@temporalio/common';
import type { MatchWithJob } from '#db/matches/matches-repository';
import { ConflictError } from '#lib/errors';
import { refusalConflict } from '#lib/update-refusal';
import {
  MATCH_NOT_ACCEPTABLE,
  MATCH_NOT_DECLINABLE,
  MATCH_RECRUITER_AT_CAPACITY,
  MATCH_ROOM_CLOSED,
  matchWorkflowId,
  type MatchUpdateResult,
} from '#workflows/matches/contract';
import { matchInputFromOffer, matchStartNames, startMatchWorkflow } from '#workflows/matches/client';
import type { MatchesContext } from './match-access';

/**
 * The match row exists from the moment its seeker's entry says `matched` (decision 0120), a few
 * milliseconds before the matchmaker starts `match:<id>`. An Update in that gap starts the
 * workflow itself from the same offer (the matchmaker's start then finds it running).
 */
async function startFromOffer({ deps }: MatchesContext, matchId: string): Promise<boolean> {
  const [offer] = await deps.repos.matchmaking.loadOfferContexts([matchId]);
  if (!offer) return false;
  const recruiters = await deps.repos.accounts.listTeamMemberIds(offer.team_id);
  try {
    await startMatchWorkflow(
      deps.temporal,
      deps.config,
      matchInputFromOffer(offer, recruiters, deps.config),
      matchStartNames(offer),
    );
  } catch (err) {
    // Already started and closed: the projection is final, the caller answers from it.
    if (err instanceof WorkflowExecutionAlreadyStartedError) return false;
    throw err;
  }
  return true;
}

/** Sends an Update; a refusal by the workflow becomes 409 with the workflow's code. */
export async function sendMatchUpdate<T>(
  ctx: MatchesContext,
  matchId: string,
  status: string,
  send: () => Promise<T>,
  refusedCode: string,
): Promise<T> {
  try {
    try {
      return await send();
    } catch (err) {
      if (!(err instanceof WorkflowNotFoundError && status === 'matched' && (await startFromOffer(ctx, matchId))))
        throw err;
      return await send();
    }
  } catch (err) {
    const conflict = refusalConflict(
      err,
      [MATCH_NOT_ACCEPTABLE, MATCH_NOT_DECLINABLE, MATCH_RECRUITER_AT_CAPACITY],
      (r) => {
        const d = r.details?.[0] as { status?: string; active?: number; capacity?: number } | undefined;
        return r.type === MATCH_RECRUITER_AT_CAPACITY
          ? { status, active: d?.active ?? null, capacity: d?.capacity ?? null }
          : { status: d?.status ?? status };
      },
    );
    if (conflict) throw conflict;
    // The workflow has closed (declined/expired/completed long ago): the projection is final.
    if (err instanceof WorkflowNotFoundError)
      throw new ConflictError(refusedCode, `match ${matchId} is ${status}`, { status });
    throw err;
  }
}

/** An Update from the interview room (arrival, both in the room): a closed room answers 409 MATCH_ROOM_CLOSED. */
export async function sendRoomUpdate<A>(
  { deps }: MatchesContext,
  match: MatchWithJob,
  room: UpdateDefinition<MatchUpdateResult, [A]>,
  arg: A,
): Promise<void> {
  try {
    await deps.temporal.workflow.getHandle(matchWorkflowId(match.id)).executeUpdate(room, { args: [arg] });
  } catch (err) {
    const conflict = refusalConflict(err, [MATCH_ROOM_CLOSED], (r) => ({
      status: (r.details?.[0] as { status?: string } | undefined)?.status ?? match.status,
    }));
    if (conflict) throw conflict;
    if (err instanceof WorkflowNotFoundError)
      throw new ConflictError(MATCH_ROOM_CLOSED, `match ${match.id} is closed`, { status: match.status });
    throw err;
  }
}
