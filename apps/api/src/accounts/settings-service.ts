import type { Knex } from 'knex';
import { type TeamSettings, type UserSettings } from '#db/accounts/settings-repository';
import { ForbiddenError, NotFoundError } from '#lib/errors';
import { TEAM_MANAGER_ROLES, type TeamRole } from '#db/accounts/accounts-repository';
import { type EventVisibility } from '#db/events/events-repository';
import type { ServiceDeps } from '../plugins/service-deps';

export interface SettingsView {
  user: UserSettings & { email: string };
  team: (TeamSettings & { name: string; role: TeamRole }) | null;
}

export interface SettingsPatch {
  user?: { notification_email?: string | null };
  team?: {
    auto_accept_matches?: boolean;
    default_event_visibility?: EventVisibility;
    notification_email?: string | null;
  };
}

/** Roles that may change team settings and manage invites. */

export function createSettingsService(deps: Pick<ServiceDeps, 'knex' | 'repos'>) {
  const accounts = deps.repos.accounts;
  const settings = deps.repos.settings;

  const view = async (userId: string, trx: Knex = deps.knex): Promise<SettingsView> => {
    const user = await accounts.findUserById(userId, trx);
    if (!user) throw new NotFoundError('user', userId);
    const membership = user.role === 'recruiter' ? await accounts.findMembership(userId, trx) : undefined;
    return {
      user: { ...(await settings.findUserSettings(userId, trx)), email: user.email },
      team: membership
        ? {
            ...(await settings.findTeamSettings(membership.team_id, trx)),
            name: membership.team_name,
            role: membership.role,
          }
        : null,
    };
  };

  return {
    get: (userId: string) => view(userId),

    /** User settings for anyone; team settings only for owners and admins of a team (403 otherwise). */
    async update(userId: string, patch: SettingsPatch): Promise<SettingsView> {
      return deps.knex.transaction(async (trx) => {
        if (patch.team && Object.keys(patch.team).length > 0) {
          const membership = await accounts.findMembership(userId, trx);
          if (!membership)
            throw new ForbiddenError('Team settings need a recruiter who belongs to a team', 'RECRUITER_TEAM_REQUIRED');
          if (!TEAM_MANAGER_ROLES.has(membership.role))
            throw new ForbiddenError('Only team owners and admins can change team settings', 'TEAM_ROLE_REQUIRED');
          await settings.upsertTeamSettings(membership.team_id, patch.team, userId, trx);
        }
        if (patch.user && Object.keys(patch.user).length > 0)
          await settings.upsertUserSettings(userId, patch.user, trx);
        return view(userId, trx);
      });
    },
  };
}
export type SettingsService = ReturnType<typeof createSettingsService>;
