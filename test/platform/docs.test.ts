import { createHarness, type Harness } from '../helpers/harness';

describe('docs for agents: /llms.txt and the Markdown agent guide, generated from what is served', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await createHarness({ worker: false });
  });
  afterAll(async () => h?.close());

  it(
    '/llms.txt says what the service is, how to authenticate, the flow, and links the OpenAPI ' +
      'document, the MCP endpoint and the reference',
    async () => {
      const r = await h.call({ method: 'GET', url: '/llms.txt' });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/plain/);
      expect(r.body).toMatch(/^# Job Fair\n\n> /);
      for (const link of [
        'http://jobfair.test/api/v1/openapi.json',
        'http://jobfair.test/mcp',
        'http://jobfair.test/docs/api/',
        'http://jobfair.test/docs/agents.md',
      ])
        expect(r.body).toContain(`(${link})`);
      expect(r.body).toMatch(/Authorization: Bearer svc_/);
      // The person accepts at the match's details_url; join_url is where they follow the queue.
      expect(r.body).toMatch(/hand the human the status's `details_url`/);
      expect(r.body).toMatch(/`join_url` is where the human follows the queue/);
    },
  );

  it(
    'the agent guide lists every MCP tool (one per operation), the scopes, both MCP configs ' +
      'and both signature schemes',
    async () => {
      const r = await h.call({ method: 'GET', url: '/docs/agents.md' });
      expect(r.statusCode).toBe(200);
      expect(r.headers['content-type']).toMatch(/^text\/markdown/);
      const tools = h.app.mcpTools();
      expect(tools.length).toBeGreaterThan(40);
      for (const t of tools) expect(r.body).toContain(`| \`${t.name}\` |`);
      expect(r.body).toMatch(/give the human the match's `details_url`/);
      expect(r.body).toMatch(/`svc_queue_leave` \(`POST \/queue\/leave`\) always works/);
      expect(r.body).toContain('`queue:write`: Join and leave the matchmaking queue');
      expect(r.body).toContain('"url": "http://jobfair.test/mcp"');
      expect(r.body).toContain('"args": ["jobfair-mcp"]');
      expect(r.body).toMatch(/stripe\.webhooks\.constructEvent/);
      expect(r.body).toMatch(/new Webhook\(secret, \{ format: "raw" \}\)/);
    },
  );

  it('the docs, the reference and the MCP endpoints stay out of the OpenAPI document', async () => {
    const doc = (await h.call({ method: 'GET', url: '/api/v1/openapi.json' })).json();
    expect(Object.keys(doc.paths).filter((p) => !p.startsWith('/api/v1/'))).toEqual([]);
  });
});
