import { z } from 'zod';
import { MATCH_OUTLOOK_STATES } from './queue-service';
import { isoDateTime } from '../plugins/http-schemas';
import { QUEUE_ENTRY_STATUSES } from '#workflows/queue/contract';

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
      'position ÷ the recent rate of matches for the jobs this seeker can still get; null with ' +
        'too little data or when nothing can match (see match_outlook)',
    ),
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
        .describe('Open jobs that can still be offered (null when not counted)'),
    })
    .nullable()
    .describe('Why the entry is not matched yet; null when not waiting. Also why estimated_wait_seconds is null.')
    .meta({ id: 'MatchOutlook' }),
};

export const queueJoinResponseSchema = z
  .object({
    queue_id: z.uuid(),
    status: z
      .enum(QUEUE_ENTRY_STATUSES)
      .extract(['waiting'])
      .describe('`waiting` for a new or resumed entry (a matched entry answers 409 QUEUE_ENTRY_MATCHED instead)'),
    live_event_slug: z.string().nullable(),
    join_url: z.url(),
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
