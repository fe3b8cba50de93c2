import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import { type SettingsView } from './settings-service';
import { TEAM_ROLES } from '#db/accounts/accounts-repository';
import { EVENT_VISIBILITIES } from '#db/events/events-repository';

const email = z.email().max(320);

export const settingsSchema = z
  .object({
    user: z.object({
      email: z.string().describe('The account e-mail'),
      notification_email: z.string().nullable().describe('Where notifications go; null = the account e-mail'),
      updated_at: isoDateTime.nullable(),
    }),
    team: z
      .object({
        team_id: z.uuid(),
        name: z.string(),
        role: z.enum(TEAM_ROLES).describe("The caller's role; owners and admins may change team settings"),
        auto_accept_matches: z
          .boolean()
          .describe(
            'Recruiters of the team accept new matches automatically (the seeker still accepts in the web application)',
          ),
        default_event_visibility: z
          .enum(EVENT_VISIBILITIES)
          .describe('Visibility of new events when POST /live-events does not say'),
        notification_email: z
          .string()
          .nullable()
          .describe("Where team notifications go; null = each recruiter's own address"),
        updated_at: isoDateTime.nullable(),
      })
      .nullable()
      .describe('Null for callers without a team'),
  })
  .meta({ id: 'Settings' });

export const patchSchema = z
  .strictObject({
    user: z.strictObject({ notification_email: email.nullable().optional() }).optional(),
    team: z
      .strictObject({
        auto_accept_matches: z.boolean().optional(),
        default_event_visibility: z.enum(EVENT_VISIBILITIES).optional(),
        notification_email: email.nullable().optional(),
      })
      .optional(),
  })
  .refine((b) => Object.keys(b.user ?? {}).length + Object.keys(b.team ?? {}).length > 0, {
    message: 'send at least one setting to change',
  })
  .meta({ id: 'SettingsPatch' });

export const toSettings = (v: SettingsView): z.output<typeof settingsSchema> => ({
  user: {
    email: v.user.email,
    notification_email: v.user.notification_email,
    updated_at: v.user.updated_at?.toISOString() ?? null,
  },
  team: v.team
    ? {
        team_id: v.team.team_id,
        name: v.team.name,
        role: v.team.role,
        auto_accept_matches: v.team.auto_accept_matches,
        default_event_visibility: v.team.default_event_visibility,
        notification_email: v.team.notification_email,
        updated_at: v.team.updated_at?.toISOString() ?? null,
      }
    : null,
});
