import { z } from 'zod';

import { PROFILE_REMOTE_PREFERENCES } from '#db/accounts/profiles-repository';

const trimmed = (max: number) => z.string().trim().min(1).max(max);

/** Skills: trimmed, 1–60 chars each, at most 50, de-duplicated case-insensitively (first spelling kept). */
export const skillsSchema = z
  .array(z.string().trim().min(1).max(60))
  .max(50)
  .transform((skills) => {
    const seen = new Set<string>();
    return skills.filter((s) => {
      const k = s.toLowerCase();
      if (seen.has(k)) return false;
      seen.add(k);
      return true;
    });
  });

export const profileSchema = z
  .object({
    full_name: z.string(),
    title: z.string(),
    summary: z.string().nullable(),
    skills: z.array(z.string()),
    experience_years: z.number().int(),
    location: z.string().nullable(),
    remote_preference: z.enum(PROFILE_REMOTE_PREFERENCES).nullable(),
    salary_expectation: z
      .number()
      .int()
      .nullable()
      .describe(
        "Lowest acceptable yearly salary (the jobs' currency); null when not given. Feeds the " +
          'salary component of the match score.',
      ),
    updated_at: z.iso.datetime({ offset: true }).optional(),
  })
  .meta({ id: 'Profile' });

export const profilePatchSchema = z
  .strictObject({
    full_name: trimmed(200).optional(),
    title: z.string().trim().max(200).optional(),
    summary: z.string().trim().max(5000).nullable().optional(),
    skills: skillsSchema.optional(),
    experience_years: z.number().int().min(0).max(60).optional(),
    location: z.string().trim().max(200).nullable().optional(),
    remote_preference: z.enum(PROFILE_REMOTE_PREFERENCES).nullable().optional(),
    salary_expectation: z
      .number({ error: 'enter the salary as a whole number, e.g. 65000' })
      .int({ error: 'enter the salary as a whole number, e.g. 65000' })
      .min(0, { error: 'the salary cannot be negative' })
      .max(100_000_000, { error: 'enter a yearly salary below 100,000,000' })
      .nullable()
      .optional()
      .describe('Lowest acceptable yearly salary; null clears it'),
  })
  .refine((b) => Object.keys(b).length > 0, {
    message:
      'send at least one of full_name, title, summary, skills, experience_years, location, ' +
      'remote_preference, salary_expectation',
  })
  .meta({ id: 'ProfilePatch' });

export type ProfilePatch = z.output<typeof profilePatchSchema>;
