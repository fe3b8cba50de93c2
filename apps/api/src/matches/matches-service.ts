import { createVideoProvider, type VideoProvider } from '../room/room-service';
import type { ServiceDeps } from '../plugins/service-deps';
import { createMatchesContext } from './matches-service/match-access';
import { listMatches } from './matches-service/list-matches';
import { acceptMatch } from './matches-service/accept-match';
import { declineMatch } from './matches-service/decline-match';
import { completeInterview, enterRoom, startInterviewClock } from './matches-service/interview';
import { submitReport } from './matches-service/interview-report';
import { interviewRoomUrl } from './matches-service/interview-room-url';

export type { MatchView } from './matches-service/match-access';
export { MATCH_LIST_MAX } from './matches-service/list-matches';
export { LEAVE_PROJECTION_WAIT_MS } from './matches-service/decline-match';

/**
 * Use-cases of matches, one module each under matches-service/. Accepting and completing an
 * interview are for the web application only (a session-authenticated human): no API route calls
 * `accept` or `completeInterview`. Every call checks that the caller is a party — the seeker, or a
 * recruiter of the job's team — and answers 404 otherwise, so other tenants' matches are not
 * revealed.
 */
export function createMatchesService(
  deps: Pick<ServiceDeps, 'repos' | 'temporal' | 'config' | 'appSecret'> & { videoProvider?: VideoProvider },
) {
  const ctx = createMatchesContext(deps, deps.videoProvider ?? createVideoProvider(deps.config, deps.appSecret));
  /** The input of a use-case (its second parameter, after the shared context). */
  type Input<F extends (c: typeof ctx, input: never) => unknown> = Parameters<F>[1];
  return {
    list: (input: Input<typeof listMatches>) => listMatches(ctx, input),
    get: (input: { userId: string; matchId: string }) => ctx.load(input.userId, input.matchId),
    accept: (input: Input<typeof acceptMatch>) => acceptMatch(ctx, input),
    decline: (input: Input<typeof declineMatch>) => declineMatch(ctx, input),
    startInterviewClock: (input: Input<typeof startInterviewClock>) => startInterviewClock(ctx, input),
    enterRoom: (input: Input<typeof enterRoom>) => enterRoom(ctx, input),
    completeInterview: (input: Input<typeof completeInterview>) => completeInterview(ctx, input),
    submitReport: (input: Input<typeof submitReport>) => submitReport(ctx, input),
    interviewRoomUrl: (input: Input<typeof interviewRoomUrl>) => interviewRoomUrl(ctx, input),
  };
}
export type MatchesService = ReturnType<typeof createMatchesService>;
