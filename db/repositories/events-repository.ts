import type { Knex } from 'knex';

export type LiveEventStatus = 'draft' | 'live' | 'paused' | 'ended';

export interface LiveEventRow {
  id: string;
  team_id: string;
  slug: string;
  company_name: string;
  headline: string | null;
  description: string | null;
  accent_color: string;
  logo_url: string | null;
  visibility: 'open_invite' | 'private';
  status: LiveEventStatus;
  planned_start_at: Date | null;
  planned_end_at: Date | null;
  started_at: Date | null;
  ends_at: Date | null;
  ended_at: Date | null;
  interview_slots: number;
  created_at: Date;
  updated_at: Date;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function createEventsRepository(knex: Knex) {
  return {
    async findById(id: string, trx: Knex = knex): Promise<LiveEventRow | undefined> {
      return trx('live_events').where({ id }).first();
    },
    async findBySlug(slug: string, trx: Knex = knex): Promise<LiveEventRow | undefined> {
      return trx('live_events').where({ slug }).first();
    },
    /** The queue-join alias `event_id` may carry a slug or an id. */
    async findBySlugOrId(ref: string, trx: Knex = knex): Promise<LiveEventRow | undefined> {
      const q = trx('live_events').where({ slug: ref });
      if (UUID_RE.test(ref)) q.orWhere({ id: ref });
      return q.first();
    },
  };
}
export type EventsRepository = ReturnType<typeof createEventsRepository>;
