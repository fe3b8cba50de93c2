import { AppError } from '#lib/errors';
import type { Config } from '#lib/config';
import type { MatchPartyRole } from '#workflows/matches/contract';
import type { MatchesService } from '../matches/matches-service';
import { liveKitSettings, matchIdOfRoom, partyOfParticipant } from './livekit-tokens';
import type { LiveKitRooms } from './livekit-rooms';

/** What a LiveKit webhook changed: `arrival` (one party), `both` (the clock), or nothing to do and why. */
export type LiveKitPresenceOutcome =
  | { outcome: 'arrival' | 'both'; matchId: string; role: MatchPartyRole }
  | { outcome: 'left'; matchId: string; role: MatchPartyRole }
  | { outcome: 'ignored'; reason: string; matchId?: string }
  | { outcome: 'closed'; matchId: string; code: string };

/**
 * The interview room on LiveKit (VIDEO_PROVIDER=livekit; decision 0253): the room page asks for a
 * token, LiveKit's participant webhooks tell who is in the room. Presence feeds the same two match
 * workflow updates the built-in room's signalling does (`enterRoom`, `startInterviewClock`), so
 * the interview clock and the no-show deadline work unchanged.
 */
export function createLiveKitRoomService(deps: {
  config: Pick<Config, 'VIDEO_PROVIDER' | 'LIVEKIT_URL' | 'LIVEKIT_API_KEY' | 'LIVEKIT_API_SECRET'>;
  appSecret: string;
  matches: Pick<MatchesService, 'enterRoom' | 'startInterviewClock'>;
  rooms?: LiveKitRooms;
}) {
  const settings = liveKitSettings(deps.config, deps.appSecret);
  if (!settings) return null;
  // The LiveKit server SDK is loaded on the first call, not at the API's start.
  let loaded: Promise<LiveKitRooms> | undefined;
  const engine = (): Promise<LiveKitRooms> =>
    (loaded ??= deps.rooms
      ? Promise.resolve(deps.rooms)
      : import('./livekit-rooms').then((m) => m.createLiveKitRooms(settings)));
  const { matches, appSecret } = deps;

  /** Both are in the room: the clock starts (the first time) and both pages are told. */
  const startClock = async (matchId: string, userId: string): Promise<void> => {
    const { match: m } = await matches.startInterviewClock({ userId, matchId });
    await (
      await engine()
    ).broadcast(matchId, {
      type: 'clock',
      started_at: m.interview_started_at?.toISOString() ?? null,
      ends_at: m.interview_ends_at?.toISOString() ?? null,
    });
  };

  return {
    /** The URL browsers connect to. */
    url: settings.url,

    /**
     * What the room page joins with, for a party its room token admitted: the match's room
     * (created if needed) and a token for it that expires with the room URL.
     */
    async join(p: {
      matchId: string;
      userId: string;
      role: MatchPartyRole;
      expiresAt: Date;
    }): Promise<{ url: string; token: string }> {
      const rooms = await engine();
      await rooms.ensureRoom(p.matchId);
      return { url: rooms.url, token: await rooms.mintToken(p) };
    },

    /** The interview ended: LiveKit closes the room and disconnects both pages. */
    close: async (matchId: string): Promise<void> => (await engine()).close(matchId),

    /**
     * A LiveKit webhook (signature checked: 401 LIVEKIT_SIGNATURE_INVALID otherwise). `participant_joined` of
     * one of the two parties records the arrival; when LiveKit lists both parties connected, the
     * interview clock starts. A room whose match has moved on changes nothing (`closed`).
     */
    async webhook(body: string, authorization: string | undefined): Promise<LiveKitPresenceOutcome> {
      let event;
      try {
        event = await (await engine()).receive(body, authorization);
      } catch {
        throw new AppError(401, 'LIVEKIT_SIGNATURE_INVALID', 'the LiveKit webhook signature is missing or invalid');
      }
      if (event.event !== 'participant_joined' && event.event !== 'participant_left')
        return { outcome: 'ignored', reason: event.event || 'no event' };
      const matchId = matchIdOfRoom(event.room?.name);
      if (!matchId) return { outcome: 'ignored', reason: 'not a match room' };
      const party = partyOfParticipant(appSecret, matchId, event.participant);
      if (!party) return { outcome: 'ignored', reason: 'not a party of the match', matchId };
      // Leaving changes nothing in the match: the clock runs on, and the room stays open.
      if (event.event === 'participant_left') return { outcome: 'left', matchId, role: party.role };
      try {
        await matches.enterRoom({ userId: party.userId, matchId });
        const present = new Set((await (await engine()).partiesIn(matchId)).map((p) => p.role));
        if (!(present.has('seeker') && present.has('recruiter')))
          return { outcome: 'arrival', matchId, role: party.role };
        await startClock(matchId, party.userId);
        return { outcome: 'both', matchId, role: party.role };
      } catch (err) {
        // The match ended meanwhile (or a 404): nothing to record, and LiveKit need not retry.
        if (err instanceof AppError && (err.status === 409 || err.status === 404))
          return { outcome: 'closed', matchId, code: err.code };
        throw err;
      }
    },
  };
}
export type LiveKitRoomService = NonNullable<ReturnType<typeof createLiveKitRoomService>>;
