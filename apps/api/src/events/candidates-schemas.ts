import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import type { CandidateMatchRow, CandidateNoteRow, CandidateRow } from '#db/events/candidates-repository';
import { iso } from '#lib/dates';

export const noteSchema = z
  .object({
    note: z.string(),
    rating: z.number().int().min(1).max(5).nullable(),
    updated_at: isoDateTime,
  })
  .meta({ id: 'CandidateNote' });

export const candidateSchema = z
  .object({
    user_id: z.uuid(),
    full_name: z.string(),
    title: z.string().nullable(),
    summary: z.string().nullable(),
    skills: z.array(z.string()),
    experience_years: z.number().int().nullable(),
    location: z.string().nullable(),
    remote_preference: z.string().nullable(),
    first_seen_at: isoDateTime.describe(
      'First contact with the team: first queue entry for one of its events, or first match',
    ),
    last_seen_at: isoDateTime,
    event_slugs: z.array(z.string()).describe("The team's events whose queue the seeker joined"),
    matches_count: z.number().int().describe("Matches with the team's jobs"),
    note: noteSchema.nullable().describe("The team's private note and rating"),
  })
  .meta({ id: 'Candidate' });

export const candidateMatchSchema = z
  .object({
    id: z.uuid(),
    status: z.string(),
    match_score: z.number().nullable(),
    job_id: z.uuid(),
    job_title: z.string(),
    event_slug: z.string(),
    created_at: isoDateTime,
    expires_at: isoDateTime.nullable(),
    accepted_at: isoDateTime.nullable(),
    declined_at: isoDateTime.nullable(),
    completed_at: isoDateTime.nullable(),
  })
  .meta({ id: 'CandidateMatch' });

export const userParams = z.object({ userId: z.uuid() });

export const toCandidate = (c: CandidateRow): z.output<typeof candidateSchema> => ({
  user_id: c.id,
  full_name: c.full_name ?? c.display_name,
  title: c.title,
  summary: c.summary,
  skills: c.skills ?? [],
  experience_years: c.experience_years,
  location: c.location,
  remote_preference: c.remote_preference,
  first_seen_at: c.created_at.toISOString(),
  last_seen_at: c.last_seen_at.toISOString(),
  event_slugs: c.event_slugs,
  matches_count: c.matches_count,
  note: c.note_updated_at
    ? { note: c.note ?? '', rating: c.rating, updated_at: c.note_updated_at.toISOString() }
    : null,
});
export const toMatch = (m: CandidateMatchRow): z.output<typeof candidateMatchSchema> => ({
  id: m.id,
  status: m.status,
  match_score: m.match_score,
  job_id: m.job_id,
  job_title: m.job_title,
  event_slug: m.event_slug,
  created_at: m.created_at.toISOString(),
  expires_at: iso(m.expires_at),
  accepted_at: iso(m.accepted_at),
  declined_at: iso(m.declined_at),
  completed_at: iso(m.completed_at),
});
export const toNote = (n: CandidateNoteRow): z.output<typeof noteSchema> => ({
  note: n.note,
  rating: n.rating,
  updated_at: n.updated_at.toISOString(),
});

/** Body of PUT /candidates/{userId}/note (also validates the web console's note form). */
export const candidateNoteBodySchema = z
  .strictObject({
    note: z.string().trim().max(5000),
    rating: z.number().int().min(1).max(5).nullable().optional(),
  })
  .meta({ id: 'CandidateNotePut' });
