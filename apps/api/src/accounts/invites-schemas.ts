import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import { effectiveStatus, INVITE_ROLES, INVITE_STATUSES, type InviteRow } from '#db/accounts/invites-repository';

export const inviteSchema = z
  .object({
    id: z.uuid(),
    email: z.string(),
    role: z.enum(INVITE_ROLES),
    status: z.enum(INVITE_STATUSES),
    invited_by: z.uuid().nullable(),
    accepted_by: z.uuid().nullable(),
    expires_at: isoDateTime,
    accepted_at: isoDateTime.nullable(),
    revoked_at: isoDateTime.nullable(),
    created_at: isoDateTime,
  })
  .meta({ id: 'TeamInvite' });

export const toInvite = (r: InviteRow): z.output<typeof inviteSchema> => ({
  id: r.id,
  email: r.email,
  role: r.role,
  status: effectiveStatus(r),
  invited_by: r.invited_by,
  accepted_by: r.accepted_by,
  expires_at: r.expires_at.toISOString(),
  accepted_at: r.accepted_at?.toISOString() ?? null,
  revoked_at: r.revoked_at?.toISOString() ?? null,
  created_at: r.created_at.toISOString(),
});

/** Body of POST /team/invites (also validates the recruiter console's invite form). */
export const createInviteBodySchema = z
  .strictObject({ email: z.email().max(320), role: z.enum(INVITE_ROLES).default('member') })
  .meta({ id: 'TeamInviteCreate' });
