import type { FloorBracket } from '#lib/config';
import type { RecruiterAvailabilityRow } from '#db/events/availability-repository';
import { NotFoundError } from '#lib/errors';
import { eventFloorOf, floorFor, type AppliedFloor } from '#domain/matchmaking/match-floor';
import { kickMatchmaker } from '#workflows/matchmaking/client';
import type { ServiceDeps } from '../plugins/service-deps';

export interface MatchingSettingsView {
  eventId: string;
  /** The event's own floor (null: the default applies) and the default. */
  minScore: number | null;
  requireEssential: boolean | null;
  /** Relaxed brackets may lift the essential-skill rule (null: the default, false). */
  relaxEssential: boolean | null;
  /** Pairs whose remote modes cannot meet may be offered (null: the default, false). */
  allowRemoteMismatch: boolean | null;
  defaultMinScore: number;
  /** What the floor allows from each bracket on, as the matchmaker applies it at this event. */
  floors: AppliedFloor[];
  brackets: readonly FloorBracket[];
  recruiters: RecruiterAvailabilityRow[];
}

/**
 * An event's matching settings (recruiter availability and the quality floor): who of the team takes interviews at it and
 * how many at once (each recruiter sets their own), and the event's quality floor. A change wakes
 * the matchmaker (capacity may have grown, the floor may have dropped).
 */
export function createMatchingSettingsService(deps: Pick<ServiceDeps, 'repos' | 'temporal' | 'config'>) {
  const events = deps.repos.events;
  const availability = deps.repos.availability;

  const mustFind = async (teamId: string, eventId: string) => {
    const row = await events.findForTeam(teamId, eventId);
    if (!row) throw new NotFoundError('live event', eventId);
    return row;
  };
  const view = async (eventId: string): Promise<MatchingSettingsView> => {
    const [floor, recruiters] = await Promise.all([
      availability.findFloor(eventId),
      availability.listForEvent(eventId),
    ]);
    return {
      eventId,
      minScore: floor?.match_min_score ?? null,
      requireEssential: floor?.match_require_essential ?? null,
      relaxEssential: floor?.match_relax_essential ?? null,
      allowRemoteMismatch: floor?.match_allow_remote_mismatch ?? null,
      defaultMinScore: deps.config.MATCH_MIN_SCORE,
      floors: deps.config.MATCH_FLOOR_BRACKETS.map((b) =>
        floorFor(
          eventFloorOf(floor ?? { match_min_score: null, match_require_essential: null }, deps.config.MATCH_MIN_SCORE),
          b.afterMs,
          deps.config.MATCH_FLOOR_BRACKETS,
        ),
      ),
      brackets: deps.config.MATCH_FLOOR_BRACKETS,
      recruiters,
    };
  };
  const kick = () => kickMatchmaker(deps.temporal, deps.config, 'settings_changed');

  return {
    async get(teamId: string, eventId: string): Promise<MatchingSettingsView> {
      await mustFind(teamId, eventId);
      return view(eventId);
    },
    /** The caller's own availability at one of the team's events. Unavailable: no new offers; open ones stay. */
    async setAvailability(
      teamId: string,
      userId: string,
      eventId: string,
      input: { available: boolean; capacity?: number },
    ): Promise<MatchingSettingsView> {
      await mustFind(teamId, eventId);
      const current = await availability.findOne(eventId, userId);
      await availability.upsert(eventId, userId, {
        available: input.available,
        capacity: input.capacity ?? current?.capacity ?? 1,
      });
      await kick();
      return view(eventId);
    },
    async setFloor(
      teamId: string,
      eventId: string,
      input: {
        min_score?: number | null;
        require_essential?: boolean | null;
        relax_essential?: boolean | null;
        allow_remote_mismatch?: boolean | null;
      },
    ): Promise<MatchingSettingsView> {
      await mustFind(teamId, eventId);
      await availability.setFloor(eventId, {
        ...(input.min_score !== undefined ? { match_min_score: input.min_score } : {}),
        ...(input.require_essential !== undefined ? { match_require_essential: input.require_essential } : {}),
        ...(input.relax_essential !== undefined ? { match_relax_essential: input.relax_essential } : {}),
        ...(input.allow_remote_mismatch !== undefined
          ? { match_allow_remote_mismatch: input.allow_remote_mismatch }
          : {}),
      });
      await kick();
      return view(eventId);
    },
  };
}
export type MatchingSettingsService = ReturnType<typeof createMatchingSettingsService>;
