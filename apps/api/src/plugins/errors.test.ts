import { z } from 'zod';
import { validatorCompiler } from 'fastify-type-provider-zod';
import { isClientShutDown, isWorkflowNotReady, mapError, zodIssuesToDetails } from './errors';

/** What fastify-type-provider-zod hands Fastify as `err.validation`, turned into our `details.issues`. */
const issuesFor = (schema: z.ZodType, data: unknown, validationContext = 'body') => {
  const result = validatorCompiler({ schema, method: 'POST', url: '/x', httpPart: 'body' } as never)(data) as {
    error?: unknown[];
  };
  return zodIssuesToDetails({ validation: result.error, validationContext });
};

describe('validation issues → details.issues', () => {
  const schema = z.strictObject({
    name: z.string(),
    tags: z.array(z.string()).optional(),
    nested: z.strictObject({ n: z.number().int() }).optional(),
  });

  it('names each unknown property in the path', () => {
    expect(issuesFor(schema, { name: 'a', colour: 'red', size: 3 })).toEqual([
      { path: 'body.colour', message: "unknown property 'colour' is not allowed" },
      { path: 'body.size', message: "unknown property 'size' is not allowed" },
    ]);
    expect(issuesFor(schema, { name: 'a', nested: { n: 1, extra: true } })).toEqual([
      { path: 'body.nested.extra', message: "unknown property 'extra' is not allowed" },
    ]);
  });

  it('locates nested and array problems, and names the request part', () => {
    expect(issuesFor(schema, { name: 'a', tags: ['x', 5] })).toEqual([
      { path: 'body.tags.1', message: expect.stringMatching(/string/) },
    ]);
    expect(issuesFor(schema, { name: 1 })).toEqual([{ path: 'body.name', message: expect.any(String) }]);
    expect(issuesFor(schema, null)).toEqual([{ path: 'body', message: expect.any(String) }]);
    expect(issuesFor(z.object({ limit: z.coerce.number().int().max(100) }), { limit: '101' }, 'querystring')).toEqual([
      { path: 'query.limit', message: expect.any(String) },
    ]);
  });
});

describe('a request caught by the shutdown', () => {
  const request = { headers: {} } as never;

  it('the Temporal channel closed under it → 503 DEPENDENCY_UNAVAILABLE with Retry-After, not 500', () => {
    for (const err of [
      new Error('Channel has been shut down'),
      new Error('could not start the workflow', { cause: new Error('Channel has been shut down') }),
    ]) {
      expect(isClientShutDown(err)).toBe(true);
      expect(mapError(err, request)).toMatchObject({
        status: 503,
        body: { code: 'DEPENDENCY_UNAVAILABLE' },
        headers: { 'retry-after': expect.any(String) },
      });
    }
  });

  it('a workflow whose last task failed (an overloaded worker; the server retries it) → 503, not 500', () => {
    const err = Object.assign(
      new Error('Unable to perform workflow execution update due to Workflow Task in failed state.'),
      { code: 9 },
    );
    expect(isWorkflowNotReady(err)).toBe(true);
    expect(mapError(err, request)).toMatchObject({ status: 503, headers: { 'retry-after': expect.any(String) } });
    expect(isWorkflowNotReady(Object.assign(new Error('other precondition'), { code: 9 }))).toBe(false);
  });

  it('other errors are still 500 INTERNAL', () => {
    expect(isClientShutDown(new Error('something else'))).toBe(false);
    expect(mapError(new TypeError('x is undefined'), request)).toMatchObject({
      status: 500,
      body: { code: 'INTERNAL' },
    });
  });
});
