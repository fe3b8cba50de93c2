import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { isoDateTime } from '../plugins/http-schemas';
import { mapPage, pageSchema, paginationQuerySchema } from '../plugins/pagination';
import { EDGE_CACHE_SECONDS, setPublicCacheHeaders } from '../plugins/public-cache';
import { LIVE_NOW_LIMIT } from './events-service';
import { ValidationError } from '#lib/errors';
import { skills } from '#domain/matchmaking/skills';
import { JOB_REMOTE_PREFERENCES, type JobSearchParams } from '#db/events/jobs-repository';
import {
  jobSchema,
  jobSearchHitSchema,
  liveEventSchema,
  SALARY_MAX,
  salaryAmount,
  toJob,
  toJobSearchHit,
  toLiveEvent,
} from './discovery-schemas';

/** Most skills one search may name. */
const MAX_SEARCH_SKILLS = 20;

const jobSearchQuerySchema = z.strictObject({
  skills: z
    .string()
    .max(1000)
    .optional()
    .describe(
      `Comma-separated skill tags (at most ${MAX_SEARCH_SKILLS}); matches jobs whose essential ` +
        `or bonus skills contain any of them. Skills are compared as canonical skills: a spelling or ` +
        `short form names the same skill (postgres = PostgreSQL, k8s = Kubernetes, nodejs = Node.js); ` +
        `a skill the vocabulary does not know is compared case-insensitively, after trimming`,
    ),
  remote: z.enum(JOB_REMOTE_PREFERENCES).optional().describe('Only jobs with this remote preference'),
  location: z.string().trim().min(1).max(200).optional().describe('Case-insensitive substring of the job location'),
  salary_min: z
    .string()
    .regex(/^\d{1,10}$/, `must be an integer from 0 to ${SALARY_MAX}`)
    .transform(Number)
    .pipe(salaryAmount)
    .optional()
    .describe('Only jobs whose salary_max is at or above this value (jobs without salary_max are left out)'),
  limit: z
    .string()
    .regex(/^\d{1,3}$/, 'must be an integer from 1 to 50')
    .transform(Number)
    .pipe(z.number().int().min(1).max(50))
    .optional()
    .describe('Number of jobs, 1–50 (default 20)'),
});

const liveNowSchema = z.object({ events: z.array(liveEventSchema), generated_at: isoDateTime });
const jobSearchResponseSchema = z.object({ jobs: z.array(jobSearchHitSchema), generated_at: isoDateTime });
const eventDetailSchema = z.object({ event: liveEventSchema, jobs: z.array(jobSchema) });
const eventPageSchema = pageSchema(liveEventSchema);

/**
 * The requested skills as canonical skill ids (distinct: `postgres,PostgreSQL` asks for one skill);
 * an empty list, too many skills or an over-long one is a VALIDATION error naming `skills`.
 */
export function parseSkillsParam(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  const tags = [
    ...new Set(
      raw
        .split(',')
        .map((s) => s.trim().toLowerCase())
        .filter(Boolean),
    ),
  ];
  const bad = (message: string) =>
    new ValidationError(`Invalid request: query.skills: ${message}`, [{ path: 'query.skills', message }]);
  if (tags.length === 0) throw bad('name at least one skill, e.g. skills=typescript,postgresql');
  if (tags.length > MAX_SEARCH_SKILLS) throw bad(`at most ${MAX_SEARCH_SKILLS} skills`);
  const long = tags.find((t) => t.length > 60);
  if (long) throw bad(`each skill is at most 60 characters ('${long.slice(0, 20)}…' is longer)`);
  return skills.idsOf(tags);
}

/**
 * Cached answers are kept as the serialised JSON: validated against the response schema once,
 * when built, and then sent as they are (a hit costs no serialisation at all).
 */
const serialise = <S extends z.ZodType>(schema: S, value: z.input<S>): Buffer =>
  Buffer.from(JSON.stringify(schema.parse(value)));
const sendJson = (reply: FastifyReply, body: Buffer) => reply.type('application/json; charset=utf-8').send(body);

/** The cache key of a search: the normalised parameters (order and spelling of skills do not matter). */
const searchKey = (p: JobSearchParams) =>
  `jobs-search:${JSON.stringify([[...p.skills].sort(), p.remote ?? null, p.location?.toLowerCase() ?? null, p.salaryMin ?? null, p.limit])}`;

/**
 * Public discovery (no authentication): live-now, jobs search, event detail, the public event list.
 * Answers come from the in-process short cache and carry the edge-cache headers of the spec.
 */
const discoveryRoutes: FastifyPluginAsyncZod = async (app) => {
  const cache = app.services.deps.cache;
  const events = app.services.events.liveEvents;
  const jobs = app.services.events.jobs;
  const base = app.config.publicBaseUrl;
  /** Answers from the short cache (built and serialised on a miss) with the route's edge-cache headers. */
  const sendCached = async <S extends z.ZodType>(
    reply: FastifyReply,
    key: string,
    edgeSeconds: number,
    schema: S,
    build: () => Promise<z.input<S>>,
    complete = false,
  ) => {
    const { value, hit } = await cache.get(key, async () => serialise(schema, await build()), { complete });
    setPublicCacheHeaders(reply, edgeSeconds, hit);
    return sendJson(reply, value);
  };

  app.get('/live-events/live-now', {
    config: { rateClass: 'public' },
    schema: {
      operationId: 'listLiveNowEvents',
      tags: ['discovery'],
      summary: 'Events live right now',
      description:
        `Open-invite events whose status is \`live\` or \`paused\`, most recently started first ` +
        `(at most ${LIVE_NOW_LIMIT}; \`GET /live-events\` pages through all of them). Cached about ` +
        `${EDGE_CACHE_SECONDS.liveNow} s.`,
      response: { 200: liveNowSchema },
    },
    handler: async (_request, reply) =>
      sendCached(reply, 'live-now', EDGE_CACHE_SECONDS.liveNow, liveNowSchema, async () => ({
        events: (await events.liveNow()).map((e) => toLiveEvent(e, base)),
        generated_at: new Date().toISOString(),
      })),
  });

  app.get('/jobs/search', {
    config: { rateClass: 'public' },
    schema: {
      operationId: 'searchJobs',
      tags: ['discovery'],
      summary: 'Search open jobs of live open-invite events',
      description:
        `Only open jobs whose event is \`live\` (not paused) and open-invite. Filters combine with ` +
        `AND. Order: number of requested skills the job lists (essential or bonus) descending, ` +
        `then newest first. Unknown parameters → 400 VALIDATION naming them. Cached about ` +
        `${EDGE_CACHE_SECONDS.jobsSearch} s, keyed on the normalised parameters.`,
      querystring: jobSearchQuerySchema,
      response: { 200: jobSearchResponseSchema },
    },
    handler: async (request, reply) => {
      const q = request.query;
      const params: JobSearchParams = {
        skills: parseSkillsParam(q.skills),
        remote: q.remote,
        location: q.location,
        salaryMin: q.salary_min,
        limit: q.limit ?? 20,
      };
      return sendCached(
        reply,
        searchKey(params),
        EDGE_CACHE_SECONDS.jobsSearch,
        jobSearchResponseSchema,
        async () => ({
          jobs: (await jobs.search(params)).map((j) => toJobSearchHit(j, base)),
          generated_at: new Date().toISOString(),
        }),
        true,
      ); // complete: a search answer shows nothing the data version does not follow
    },
  });

  app.get('/events/:slug', {
    config: { rateClass: 'public' },
    schema: {
      operationId: 'getPublicEvent',
      tags: ['discovery'],
      summary: 'One open-invite event and its open jobs',
      description:
        'Only open-invite events that are `live` or `paused`; draft, ended, private and unknown ' +
        'events are all 404 NOT_FOUND (existence is not leaked). Jobs: open jobs, newest first (at ' +
        'most 200).',
      params: z.object({ slug: z.string().min(1).max(64) }),
      response: { 200: eventDetailSchema },
    },
    handler: async (request, reply) => {
      const slug = request.params.slug;
      return sendCached(reply, `event:${slug}`, EDGE_CACHE_SECONDS.eventDetail, eventDetailSchema, async () => {
        const d = await events.publicDetail(slug);
        return { event: toLiveEvent(d.event, base), jobs: d.jobs.map((j) => toJob(j, base)) };
      });
    },
  });

  app.get('/live-events', {
    config: { rateClass: 'public' },
    schema: {
      operationId: 'listPublicLiveEvents',
      tags: ['discovery'],
      summary: 'All publicly listed events, paginated',
      description:
        'Open-invite events that are `live` or `paused`, newest first (by creation), in the pagination envelope.',
      querystring: paginationQuerySchema(),
      response: { 200: eventPageSchema },
    },
    handler: async (request, reply) => {
      const { limit, cursor } = request.query;
      return sendCached(
        reply,
        `live-events:${limit}:${cursor ?? ''}`,
        EDGE_CACHE_SECONDS.eventList,
        eventPageSchema,
        async () => mapPage(await events.publicList({ limit, cursor }), (e) => toLiveEvent(e, base)),
      );
    },
  });
};
export default discoveryRoutes;
