import { execFile } from 'node:child_process';
import path from 'node:path';
import { createHarness, type Harness } from '../helpers/harness';
import { collectRoutes, type CollectedRoute } from './helpers';
import { openapiPath } from '#apps/api/src/plugins/openapi';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { WEBHOOK_EVENT_TYPES } from '#workflows/webhooks/contract';
import { WEBHOOK_EVENT_DATA } from '#domain/webhooks/event-catalogue';

const ROOT = path.resolve(__dirname, '..', '..');

/**
 * Runs @seriousme/openapi-schema-validator (ESM only, so in a child Node process; jest's module
 * system cannot load it) on the document: the real OpenAPI 3.x JSON schemas, not our own idea of them.
 */
function validateOpenApi(doc: unknown): Promise<{ valid: boolean; version: string; errors?: unknown }> {
  const script = `
    import { Validator } from '@seriousme/openapi-schema-validator';
    let input = '';
    for await (const chunk of process.stdin) input += chunk;
    const v = new Validator();
    const res = await v.validate(JSON.parse(input));
    process.stdout.write(JSON.stringify({ valid: res.valid, version: v.version, errors: res.errors }));
  `;
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      ['--input-type=module', '-e', script],
      { cwd: ROOT, maxBuffer: 64 * 1024 * 1024 },
      (err, stdout, stderr) => {
        if (err) return reject(new Error(`validator failed: ${err.message}\n${stderr}`));
        resolve(JSON.parse(stdout));
      },
    );
    child.stdin!.end(JSON.stringify(doc));
  });
}

type Doc = {
  openapi: string;
  paths: Record<string, Record<string, any>>;
  components: {
    schemas: Record<string, any>;
    headers: Record<string, any>;
    parameters: Record<string, any>;
    securitySchemes: Record<string, any>;
  };
};

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** Everything the document owes a route; an empty list means the route is fully described. */
function coverageProblems(doc: Doc, routes: CollectedRoute[]): string[] {
  const problems: string[] = [];
  const seenIds = new Map<string, string>();
  for (const r of routes) {
    const name = `${r.method} ${r.url}`;
    const op = doc.paths[openapiPath(r.url)]?.[r.method.toLowerCase()];
    if (!op) {
      problems.push(`${name}: missing from the document`);
      continue;
    }
    if (!op.operationId) problems.push(`${name}: no operationId`);
    else if (seenIds.has(op.operationId))
      problems.push(`${name}: operationId ${op.operationId} also used by ${seenIds.get(op.operationId)}`);
    else seenIds.set(op.operationId, name);
    const scope = r.config.scope;
    if (scope) {
      if (JSON.stringify(op.security) !== JSON.stringify([{ bearerAuth: [scope] }]))
        problems.push(`${name}: security ${JSON.stringify(op.security)} instead of bearerAuth [${scope}]`);
      if (op['x-rate-class'] !== r.config.rateClass) problems.push(`${name}: x-rate-class ${op['x-rate-class']}`);
      for (const status of ['401', '403', '429'])
        if (!op.responses[status]) problems.push(`${name}: no ${status} response`);
      if (!op.parameters?.some((p: any) => p.$ref === '#/components/parameters/AgentIdentity'))
        problems.push(`${name}: X-Agent-Identity not documented`);
      const mutating = ['POST', 'PATCH', 'PUT', 'DELETE'].includes(r.method);
      if (
        (r.config.idempotent ?? mutating) &&
        !op.parameters?.some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey')
      )
        problems.push(`${name}: Idempotency-Key not documented`);
    } else if (JSON.stringify(op.security) !== '[]') problems.push(`${name}: public route without security: []`);
    const success = Object.keys(op.responses).filter((s) => /^2\d\d$/.test(s));
    if (success.length === 0) problems.push(`${name}: no 2xx response`);
    for (const [status, res] of Object.entries<any>(op.responses)) {
      if (!res.description) problems.push(`${name} ${status}: no description`);
      if (Number(status) >= 400) {
        const schema = res.content?.['application/json']?.schema;
        if (schema?.$ref !== '#/components/schemas/Error')
          problems.push(`${name} ${status}: not the error envelope (${JSON.stringify(schema)?.slice(0, 80)})`);
      }
      if (scope && status !== '401') {
        for (const hdr of ['X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset']) {
          if (res.headers?.[hdr]?.$ref !== `#/components/headers/${hdr}`)
            problems.push(`${name} ${status}: no ${hdr} header`);
        }
      }
      if (status === '429' && !res.headers?.['Retry-After']) problems.push(`${name} 429: no Retry-After header`);
    }
    if (r.config.deprecated && op.deprecated !== true)
      problems.push(`${name}: deprecated route without deprecated: true`);
  }
  return problems;
}

describe('OpenAPI 3.1 document', () => {
  let h: Harness;
  let routes: CollectedRoute[];
  let doc: Doc;

  beforeAll(async () => {
    h = await createHarness({ worker: false });
    routes = (await collectRoutes(h)).filter((r) => r.url.startsWith('/api/v1/') && r.method !== 'HEAD');
    const res = await h.call({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.statusCode).toBe(200);
    doc = res.json();
  });
  afterAll(async () => h?.close());

  it('is served publicly, cacheable 1 h + 24 h stale, open to every origin, with an ETag', async () => {
    const res = await h.call({ method: 'GET', url: '/api/v1/openapi.json' });
    expect(res.headers['cache-control']).toBe('public, max-age=3600, stale-while-revalidate=86400');
    expect(res.headers['access-control-allow-origin']).toBe('*');
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.headers['x-ratelimit-limit']).toBeUndefined();
    const etag = res.headers.etag as string;
    expect(etag).toMatch(/^"[A-Za-z0-9_-]+"$/);
    const again = await h.call({ method: 'GET', url: '/api/v1/openapi.json', headers: { 'if-none-match': etag } });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
  });

  it('validates as OpenAPI 3.1 with a real validator', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const res = await validateOpenApi(doc);
    expect(res.errors ?? null).toBeNull();
    expect(res).toMatchObject({ valid: true, version: '3.1' });
  });

  it(
    'has a webhooks section: every event type the emitter knows, its body the envelope around the ' +
      "catalogue's data schema, which accepts a real event and refuses a broken one",
    () => {
      const webhooks = (doc as Doc & { webhooks: Record<string, any> }).webhooks;
      expect(Object.keys(webhooks).sort()).toEqual([...WEBHOOK_EVENT_TYPES].sort());
      const ajv = new Ajv2020({ strict: false });
      addFormats(ajv);
      for (const type of WEBHOOK_EVENT_TYPES) {
        const op = webhooks[type].post;
        expect(op.parameters.map((p: any) => p.name)).toEqual(
          expect.arrayContaining(['Svc-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']),
        );
        const ref: string = op.requestBody.content['application/json'].schema.$ref;
        const schema = doc.components.schemas[ref.replace('#/components/schemas/', '')];
        expect(schema.properties.type.const).toBe(type);
        expect(Object.keys(schema.properties.data.properties).sort()).toEqual(
          Object.keys(WEBHOOK_EVENT_DATA[type].shape).sort(),
        );
      }
      const accepted = doc.components.schemas.MatchAcceptedEvent;
      const event = {
        id: 'evt_1',
        type: 'match.accepted',
        created_at: 1764000000,
        data: {
          match_id: 'mat_1',
          job_id: 'job_1',
          role_title: 'Backend engineer',
          live_event_slug: 'fair',
          accepted_at: '2026-11-26T10:00:00.000Z',
          recruiter_auto_accepted: false,
          recruiter_user_id: null,
          a_field_added_later: 1,
        },
      };
      expect(ajv.validate(accepted, event)).toBe(true);
      expect(ajv.validate(accepted, { ...event, data: { ...event.data, accepted_at: 'yesterday' } })).toBe(false);
      const { job_id: _omitted, ...withoutJob } = event.data;
      expect(ajv.validate(accepted, { ...event, data: withoutJob })).toBe(false);
    },
  );

  it('the validator does reject a broken document (the check above can fail)', async () => {
    const broken = JSON.parse(JSON.stringify(doc));
    const first = Object.values<any>(broken.paths)[0];
    first[Object.keys(first)[0]].responses = 'not an object';
    expect((await validateOpenApi(broken)).valid).toBe(false);
  });

  it('covers 100% of the registered /api/v1 routes: operationId, scope, rate class, envelope, headers', () => {
    expect(routes.length).toBeGreaterThanOrEqual(6);
    expect(coverageProblems(doc, routes)).toEqual([]);
    // …and nothing in the document is made up: every /api/v1 operation is a registered route.
    const registered = new Set(routes.map((r) => `${r.method.toLowerCase()} ${openapiPath(r.url)}`));
    const documented = Object.entries(doc.paths).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((m) => METHODS.includes(m))
        .map((m) => `${m} ${p}`),
    );
    expect(documented.filter((d) => d.includes(' /api/v1/') && !registered.has(d))).toEqual([]);
  });

  it('the coverage check fails when a route is missing or incomplete', () => {
    const broken: Doc = JSON.parse(JSON.stringify(doc));
    const profile = broken.paths['/api/v1/profile'];
    delete profile.patch;
    delete profile.get.operationId;
    const queueStatus = broken.paths['/api/v1/queue/status'].get;
    delete queueStatus.responses['200'].headers['X-RateLimit-Reset'];
    expect(coverageProblems(broken, routes)).toEqual(
      expect.arrayContaining([
        'PATCH /api/v1/profile: missing from the document',
        'GET /api/v1/profile: no operationId',
        'GET /api/v1/queue/status 200: no X-RateLimit-Reset header',
      ]),
    );
  });

  it(
    'describes the conventions once: bearer scheme with the 18 scopes, envelope, rate-limit ' +
      'headers, idempotency and agent headers',
    () => {
      expect(doc.components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(doc.components.securitySchemes.bearerAuth.description.match(/[a-z]+:(read|write)/g)).toHaveLength(18);
      expect(doc.components.schemas.Error).toMatchObject({
        type: 'object',
        required: expect.arrayContaining(['error', 'code']),
      });
      expect(Object.keys(doc.components.headers)).toEqual(
        expect.arrayContaining([
          'X-RateLimit-Limit',
          'X-RateLimit-Remaining',
          'X-RateLimit-Reset',
          'Retry-After',
          'Idempotent-Replayed',
        ]),
      );
      expect(doc.components.parameters.IdempotencyKey).toMatchObject({
        in: 'header',
        name: 'Idempotency-Key',
        schema: { type: 'string', pattern: expect.stringContaining('-4[0-9a-fA-F]{3}-') },
      });
      expect(doc.components.parameters.AgentIdentity).toMatchObject({
        in: 'header',
        name: 'X-Agent-Identity',
        schema: { maxLength: 200 },
      });
      // The profile PATCH body comes from the same zod schema that validates it: no other property allowed.
      const patch = doc.paths['/api/v1/profile'].patch;
      const body = patch.requestBody.content['application/json'].schema;
      const resolved = body.$ref ? doc.components.schemas[body.$ref.split('/').pop()] : body;
      expect(resolved.additionalProperties).toBe(false);
      expect(resolved.properties.experience_years).toMatchObject({ type: 'integer', minimum: 0, maximum: 60 });
      expect(resolved.properties.remote_preference.anyOf ?? [resolved.properties.remote_preference]).toEqual(
        expect.arrayContaining([expect.objectContaining({ enum: ['onsite', 'hybrid', 'fully_remote'] })]),
      );
      // Descriptions are added once, even for GET routes whose schema is shared with the automatic HEAD route.
      const desc: string = doc.paths['/api/v1/profile'].get.description;
      expect(desc.match(/Scope: /g)).toHaveLength(1);
    },
  );
});
