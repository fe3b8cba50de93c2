import { INTERVIEW_OUTCOMES } from '#db/matches/interview-reports-repository';
import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import { DECLINE_REASON_CODES, MATCH_PARTY_ROLES, MATCH_STATUSES, NO_SHOW_MISSING } from '#workflows/matches/contract';

/** Item of the match list, and the `match` of a decline answer. */
export const matchSchema = z
  .object({
    id: z.uuid(),
    status: z
      .enum(MATCH_STATUSES)
      .describe(
        '`matched` (waiting for both to accept) → `accepted` (the interview room is open) → ' +
          '`completed`; or `declined`, `expired`, or `no_show`: accepted, but the seeker, the ' +
          'recruiter or both did not come to the interview room in time (see `no_show_missing`); ' +
          'never an interview',
      ),
    match_score: z.number().nullable().describe('0–100, explainable: see score_breakdown and docs/match-score.md'),
    score_version: z.string().nullable().describe('Version of the score formula'),
    score_breakdown: z
      .record(z.string(), z.unknown())
      .nullable()
      .describe('Per component: weight, score 0–1 (null = no data, left out), detail'),
    created_at: isoDateTime,
    expires_at: isoDateTime.nullable().describe('End of the acceptance window'),
    role: z.enum(MATCH_PARTY_ROLES).nullable().describe("The caller's role in the match"),
    job_id: z.uuid().nullable(),
    job_title: z.string().nullable(),
    live_event_slug: z.string().nullable(),
    seeker_accepted: z.boolean(),
    recruiter_accepted: z.boolean(),
    accepted_at: isoDateTime.nullable(),
    declined_at: isoDateTime.nullable(),
    declined_by_role: z.enum(MATCH_PARTY_ROLES).nullable(),
    decline_reason: z.string().nullable(),
    decline_reason_code: z
      .enum(DECLINE_REASON_CODES)
      .nullable()
      .describe('Why, from the fixed vocabulary (null: only free text, or not declined)'),
    recruiter_user_id: z
      .uuid()
      .nullable()
      .describe(
        "The match's recruiter. Until a recruiter accepts: the one it is offered to, the suggested " +
          'interviewer (events where recruiters mark their availability; else null: the whole team). ' +
          'Once a recruiter of the team accepts: that recruiter, who interviews (with the team’s ' +
          'auto-accept: the one it was offered to). See recruiter_accepted.',
      ),
    recruiter_name: z
      .string()
      .nullable()
      .describe('Display name of `recruiter_user_id` (the interviewer once a recruiter accepted), else null'),
    joined_via_agent: z.boolean().describe('The seeker joined the queue through an API token (an agent)'),
    details_url: z.url().describe('Web page where a human views and accepts the match'),
    no_show_missing: z
      .enum(NO_SHOW_MISSING)
      .nullable()
      .describe('Who did not come to the interview room of a `no_show` match (null otherwise)'),
    no_show_at: isoDateTime.nullable().describe('When the match ended as `no_show` (null otherwise)'),
  })
  .meta({ id: 'Match' });

export const listMatchesQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(50).optional().describe('How many recent matches, 1–50 (default 50)'),
});

export const matchIdParamsSchema = z.object({ matchId: z.uuid() });
export const idParamsSchema = z.object({ id: z.uuid() });

export const declineBodySchema = z.strictObject({
  reason: z.string().trim().min(1).max(500).describe('Why; shown to the other party (1–500 characters)'),
  reason_code: z
    .enum(DECLINE_REASON_CODES)
    .optional()
    .describe(
      "Optional category, shown to the other party; a seeker's `salary` or `location` lowers " +
        "that component's weight for the rest of the queue entry",
    ),
  leave_queue: z
    .boolean()
    .optional()
    .describe(
      'The seeker only (a recruiter → 403): also leave the queue. The queue entry ends `left` instead ' +
        'of going back to waiting, in one step, so no other match is offered in between; ' +
        '`reason_code` defaults to `left_queue`',
    ),
});

const score = (what: string) =>
  z.coerce
    .number({ error: `Choose a score from 1 to 5 for ${what}` })
    .int({ error: `Choose a score from 1 to 5 for ${what}` })
    .min(1, { error: `Choose a score from 1 to 5 for ${what}` })
    .max(5, { error: `Choose a score from 1 to 5 for ${what}` });

/** The recruiter's report card after an interview (web form; the messages are for people). */
export const interviewReportBodySchema = z.strictObject({
  fit: score('fit'),
  communication: score('communication'),
  technical: score('technical skills'),
  outcome: z.enum(INTERVIEW_OUTCOMES, { error: 'Choose what happens next: advance, follow up or pass' }),
  notes: z.string().trim().max(4000, { error: 'Keep the notes under 4000 characters' }).default(''),
});
export type InterviewReportBody = z.output<typeof interviewReportBodySchema>;

export const roomUrlSchema = z
  .object({
    room_url: z.url().describe('Opens the interview room for the calling party; hand it to the human'),
    expires_at: isoDateTime,
  })
  .meta({ id: 'InterviewRoomUrl' });
