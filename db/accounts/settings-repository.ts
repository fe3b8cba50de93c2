import type { Knex } from 'knex';
import type { EventVisibility } from '../events/events-repository';

export interface TeamSettings {
  team_id: string;
  /** Recruiters of the team accept new matches automatically (read by the match workflow). */
  auto_accept_matches: boolean;
  default_event_visibility: EventVisibility;
  /** Where team notifications go; null = each recruiter's own address. */
  notification_email: string | null;
  updated_at: Date | null;
}

export interface UserSettings {
  user_id: string;
  /** Where this user's notifications go; null = the account e-mail. */
  notification_email: string | null;
  updated_at: Date | null;
}

export const TEAM_SETTINGS_DEFAULTS = {
  auto_accept_matches: false,
  default_event_visibility: 'open_invite',
  notification_email: null,
} as const;

export function createSettingsRepository(knex: Knex) {
  return {
    /** The team's settings, defaults when the team never saved any. */
    async findTeamSettings(teamId: string, trx: Knex = knex): Promise<TeamSettings> {
      const row = await trx('team_settings')
        .where({ team_id: teamId })
        .first('team_id', 'auto_accept_matches', 'default_event_visibility', 'notification_email', 'updated_at');
      return row ?? { team_id: teamId, ...TEAM_SETTINGS_DEFAULTS, updated_at: null };
    },
    async upsertTeamSettings(
      teamId: string,
      fields: Partial<Omit<TeamSettings, 'team_id' | 'updated_at'>>,
      updatedBy: string,
      trx: Knex = knex,
    ): Promise<TeamSettings> {
      const [row] = await trx('team_settings')
        .insert({
          ...TEAM_SETTINGS_DEFAULTS,
          ...fields,
          team_id: teamId,
          updated_by: updatedBy,
          updated_at: trx.fn.now(),
        })
        .onConflict('team_id')
        .merge([...Object.keys(fields), 'updated_by', 'updated_at'])
        .returning(['team_id', 'auto_accept_matches', 'default_event_visibility', 'notification_email', 'updated_at']);
      return row;
    },
    async findUserSettings(userId: string, trx: Knex = knex): Promise<UserSettings> {
      const row = await trx('user_settings')
        .where({ user_id: userId })
        .first('user_id', 'notification_email', 'updated_at');
      return row ?? { user_id: userId, notification_email: null, updated_at: null };
    },
    async upsertUserSettings(
      userId: string,
      fields: Partial<Omit<UserSettings, 'user_id' | 'updated_at'>>,
      trx: Knex = knex,
    ): Promise<UserSettings> {
      const [row] = await trx('user_settings')
        .insert({ notification_email: null, ...fields, user_id: userId, updated_at: trx.fn.now() })
        .onConflict('user_id')
        .merge([...Object.keys(fields), 'updated_at'])
        .returning(['user_id', 'notification_email', 'updated_at']);
      return row;
    },
  };
}
export type SettingsRepository = ReturnType<typeof createSettingsRepository>;
