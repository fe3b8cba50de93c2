import type { Knex } from 'knex';
import {
  type JobFields,
  type JobSearchHit,
  type JobSearchParams,
  type JobStatus,
  type JobWithEvent,
} from '#db/events/jobs-repository';
import { ConflictError, NotFoundError, ValidationError } from '#lib/errors';
import { operationUuid, type OperationKey } from '#lib/operation-ids';
import type { Page, Paginator } from '../plugins/pagination';
import type { PublicCache } from '../plugins/public-cache';
import type { ServiceDeps } from '../plugins/service-deps';

export type CreateJobInput = JobFields & { live_event_id: string };

function checkSalary(min: number | null | undefined, max: number | null | undefined) {
  if (min != null && max != null && min > max) {
    throw new ValidationError('salary_min must not exceed salary_max', [
      { path: 'body.salary_min', message: 'must be less than or equal to salary_max' },
    ]);
  }
}

export function createJobsService(deps: Pick<ServiceDeps, 'knex' | 'repos' | 'paginator' | 'cache'>) {
  const jobs = deps.repos.jobs;
  const events = deps.repos.events;

  const mustFind = async (teamId: string, jobId: string): Promise<JobWithEvent> => {
    const row = await jobs.findForTeam(teamId, jobId);
    if (!row) throw new NotFoundError('job', jobId);
    return row;
  };

  return {
    /** A job belongs to one of the team's events (another team's event → 404); an ended event takes no new jobs. */
    async create(teamId: string, input: CreateJobInput, op: OperationKey | null = null): Promise<JobWithEvent> {
      // A keyed retry after a crash: the job this key created is the answer (decision 0160).
      const id = operationUuid(op, 'job');
      if (op) {
        const done = await jobs.findForTeam(teamId, id);
        if (done) return done;
      }
      checkSalary(input.salary_min, input.salary_max);
      const event = await events.findForTeam(teamId, input.live_event_id);
      if (!event) throw new NotFoundError('live event', input.live_event_id);
      if (event.status === 'ended')
        throw new ConflictError('EVENT_ALREADY_ENDED', `live event ${event.id} has ended; it takes no new jobs`, {
          event_id: event.id,
          status: event.status,
        });
      const row = await jobs.insert({ ...input, id, team_id: teamId });
      deps.cache.clear();
      return mustFind(teamId, row.id);
    },

    async get(teamId: string, jobId: string): Promise<JobWithEvent> {
      return mustFind(teamId, jobId);
    },

    async list(
      teamId: string,
      q: { limit: number; cursor?: string; live_event_id?: string; status?: JobStatus },
    ): Promise<Page<JobWithEvent>> {
      const filter = { liveEventId: q.live_event_id, status: q.status };
      return deps.paginator.page<JobWithEvent>(jobs.teamJobsQuery(teamId, filter), {
        limit: q.limit,
        cursor: q.cursor,
        filter: { team: teamId, ...filter },
        table: 'j',
      });
    },

    /** A closed job is read-only (409 JOB_CLOSED); the salary range is checked against the stored values. */
    async update(teamId: string, jobId: string, patch: Partial<JobFields>): Promise<JobWithEvent> {
      const row = await mustFind(teamId, jobId);
      if (row.status === 'closed')
        throw new ConflictError('JOB_CLOSED', `job ${row.id} is closed and can no longer be edited`, {
          job_id: row.id,
        });
      checkSalary(
        patch.salary_min !== undefined ? patch.salary_min : row.salary_min,
        patch.salary_max !== undefined ? patch.salary_max : row.salary_max,
      );
      await jobs.update(teamId, row.id, patch);
      deps.cache.clear();
      return mustFind(teamId, row.id);
    },

    /** Idempotent: closing a closed job answers the job as it is. */
    async close(teamId: string, jobId: string): Promise<JobWithEvent> {
      const row = await mustFind(teamId, jobId);
      if (row.status === 'open') {
        await jobs.close(teamId, row.id);
        deps.cache.clear();
      }
      return mustFind(teamId, row.id);
    },

    async search(params: JobSearchParams): Promise<JobSearchHit[]> {
      return jobs.search(params);
    },
  };
}
export type JobsService = ReturnType<typeof createJobsService>;
