import { z } from 'zod';
import { MATCH_OUTLOOK_STATES } from './queue-service';
import { isoDateTime } from '../plugins/http-schemas';
import { QUEUE_ENTRY_STATUSES } from '#workflows/queue/contract';
import { WAIT_BLOCKERS } from '#domain/matchmaking/wait-explanation';

const extras = {
  position: z
    .number()
    .int()
    .min(1)
    .nullable()
    .describe('1-based place among waiting entries of the same queue; null when not waiting'),
  estimated_wait_seconds: z
    .number()
    .int()
    .min(0)
    .nullable()
    .describe(
      'A figure only when the wait explanation says when: two matchmaker intervals when an offer ' +
        'is due, else (capacity blocks) position ÷ the recent rate of matches of the jobs passing the ' +
        'floor; null when unknown — see estimated_wait and match_outlook.blocked_by, never a made-up number',
    ),
  estimated_wait: z
    .object({
      min_seconds: z.number().int().min(0).nullable().describe('Lower bound; null: unknown'),
      max_seconds: z.number().int().min(0).nullable().describe('Upper bound; null: unknown'),
      reason: z.string().describe('What the range rests on, or why there is none'),
    })
    .nullable()
    .optional()
    .describe('The honest range behind estimated_wait_seconds, with its reason; null when not waiting')
    .meta({ id: 'WaitEstimate' }),
  match_id: z.uuid().nullable().describe('The current match once matched; null until then'),
  match_outlook: z
    .object({
      state: z
        .enum(MATCH_OUTLOOK_STATES)
        .describe(
          'matchable: a job can still be offered; no_eligible_job: none can (declined or interviewed ' +
            'for each, or none fits) — waiting will not help; event_paused; unknown',
        ),
      reason: z.string().describe('One sentence for the human'),
      eligible_jobs: z
        .number()
        .int()
        .min(0)
        .nullable()
        .describe(
          'Open jobs that can still be offered: not declined, interviewed for or tried, and passing the ' +
            'quality floor now or once it relaxes (null when not counted)',
        ),
      blocked_by: z
        .enum(WAIT_BLOCKERS)
        .nullable()
        .optional()
        .describe(
          'What stops an offer now, as the matchmaker decides it; null: the next matching round ' +
            'should offer one. event_not_live, no_eligible_job, below_floor (none passes the floor of ' +
            'the current bracket yet: see floor_relaxes_at), no_free_slot, recruiters_unavailable, ' +
            'recruiters_busy, ahead_in_line, offer_in_progress',
        ),
      passing_jobs: z
        .number()
        .int()
        .min(0)
        .nullable()
        .optional()
        .describe('Of eligible_jobs, those passing the quality floor of the current bracket'),
      floor_relaxes_at: isoDateTime
        .nullable()
        .optional()
        .describe('When the quality floor next relaxes for this entry; null: it no longer does'),
    })
    .nullable()
    .describe('Why the entry is not matched yet; null when not waiting. Also why estimated_wait_seconds is null.')
    .meta({ id: 'MatchOutlook' }),
  poll_after_seconds: z
    .number()
    .int()
    .min(1)
    .nullable()
    .optional()
    .describe(
      'When to read GET /queue/status again, in seconds: wait at least this long before the next poll. ' +
        '5 while something can change soon (an offer is due or being made; matched, the match awaiting the ' +
        "person's answer); a tenth of the estimated wait (5 to 60) while capacity or the quality floor " +
        'blocks, 15 when nobody can say when; 60 while only something outside the queue can help (event ' +
        'paused or not live, no eligible job, no recruiter taking interviews). Null once the entry has ' +
        'ended (left, expired, match accepted): stop polling. From the same wait explanation as match_outlook',
    ),
};

export const queueJoinResponseSchema = z
  .object({
    queue_id: z.uuid(),
    status: z
      .enum(QUEUE_ENTRY_STATUSES)
      .extract(['waiting'])
      .describe('`waiting` for a new or resumed entry (a matched entry answers 409 QUEUE_ENTRY_MATCHED instead)'),
    live_event_slug: z.string().nullable(),
    join_url: z
      .url()
      .describe('Where the person follows the queue in the web app (signing in first); not where a match is accepted'),
    humans_only_note: z.string(),
    ...extras,
  })
  .meta({ id: 'QueueJoinResponse' });

export const queueEntrySchema = z
  .object({
    id: z.uuid(),
    status: z.enum(QUEUE_ENTRY_STATUSES),
    entered_at: isoDateTime,
    interview_mode: z.string().nullable(),
    job_ids: z.array(z.uuid()),
    live_event_slug: z.string().nullable(),
    join_url: z.url(),
    joined_via_agent: z.boolean(),
    agent_identity: z.string().nullable(),
    ...extras,
    details_url: z
      .url()
      .nullable()
      .describe(
        "The match's web page (the Match's details_url), once matched: the person accepts or declines " +
          'the match there. Null while no match is named',
      ),
  })
  .meta({ id: 'QueueEntry' });

export const joinBodySchema = z
  .strictObject({
    live_event_slug: z
      .string()
      .min(3)
      .max(64)
      .optional()
      .describe('Join the queue of this live event; omit for any event'),
    event_id: z.string().min(3).max(64).optional().describe('Alias from the step-by-step guide: an event slug or id'),
  })
  .nullish();
