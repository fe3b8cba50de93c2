import path from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { createHarness, eventually, type Harness } from '../../helpers/harness';
import { verifyWebhookSignature } from '#domain/webhooks/index';
import { startReceiver, type Receiver } from '../../webhooks/helpers';
import { listen, textOf } from './helpers';

const BIN = path.resolve(__dirname, '../../../bin/jobfair-mcp.cjs');

/** `npx jobfair-mcp` as an MCP host starts it: a child process speaking MCP on stdin/stdout. */
async function stdioClient(env: Record<string, string>): Promise<Client> {
  const client = new Client({ name: 'jobfair-stdio-test', version: '1.0.0' });
  await client.connect(
    new StdioClientTransport({
      command: process.execPath,
      args: [BIN],
      env: { PATH: process.env.PATH ?? '', ...env },
      stderr: 'pipe',
    }),
  );
  return client;
}

describe('MCP over stdio (bin jobfair-mcp → the service at JOBFAIR_BASE_URL)', () => {
  let h: Harness;
  let base: string;
  let rx: Receiver;
  const clients: Client[] = [];

  beforeAll(async () => {
    rx = await startReceiver(() => ({ status: 204 }));
    h = await createHarness({
      env: { QUEUE_ENTRY_TTL_MS: '600000', MCP_WAIT_PROGRESS_INTERVAL_MS: '100', MCP_WAIT_MAX_MS: '1500' },
    });
    base = await listen(h);
  });
  afterAll(async () => {
    for (const c of clients) await c.close().catch(() => undefined);
    await h?.close();
    await rx?.close();
  });

  it('lists only the narrow token’s tools, joins the queue and polls its status', async () => {
    const s = await h.seeker();
    const c = await stdioClient({
      JOBFAIR_BASE_URL: base,
      JOBFAIR_TOKEN: await s.tokenWith(['queue:read', 'queue:write']),
    });
    clients.push(c);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['svc_queue_join', 'svc_queue_status', 'svc_jobs_search']));
    expect(names).not.toContain('svc_webhook_create');
    const joined = await c.callTool({ name: 'svc_queue_join', arguments: {} });
    expect(joined.isError).toBeFalsy();
    expect(textOf(joined)).toMatch(/give join_url to the human/);
    const status = await c.callTool({ name: 'svc_queue_status', arguments: {} });
    expect((status.structuredContent as { queue_entry: { status: string } }).queue_entry.status).toBe('waiting');
    // With a progressToken the bridge passes the wait's progress on; after MCP_WAIT_MAX_MS the call answers, still waiting.
    const progress: Array<{ message?: string }> = [];
    const waited = await c.callTool(
      { name: 'svc_queue_status', arguments: {} },
      { onprogress: (p) => progress.push(p) },
    );
    expect((waited.structuredContent as { queue_entry: { status: string } }).queue_entry.status).toBe('waiting');
    expect(progress[0]?.message).toMatch(/^Waiting in the queue/);
  });

  it('svc_webhook_create over stdio yields a real signed delivery; 403 comes back as a tool error', async () => {
    const s = await h.seeker();
    const c = await stdioClient({ JOBFAIR_BASE_URL: base, JOBFAIR_TOKEN: s.token });
    clients.push(c);
    const created = await c.callTool({
      name: 'svc_webhook_create',
      arguments: { target_url: rx.url('/stdio'), events: ['match.matched'] },
    });
    const hook = created.structuredContent as { id: string; secret: string };
    const test = await c.callTool({ name: 'svc_webhook_test', arguments: { id: hook.id } });
    const eventId = (test.structuredContent as { event: { id: string } }).event.id;
    const [d] = await eventually(async () => rx.forEvent(eventId).length > 0 && rx.forEvent(eventId));
    expect(
      verifyWebhookSignature({ payload: d.rawBody, header: d.headers['svc-signature'], secret: hook.secret }),
    ).toBe(true);

    const rec = await h.recruiter();
    const r = await stdioClient({ JOBFAIR_BASE_URL: base, JOBFAIR_TOKEN: await rec.tokenWith(['queue:write']) });
    clients.push(r);
    const refused = await r.callTool({ name: 'svc_queue_join', arguments: {} });
    expect(refused.isError).toBe(true);
    expect(refused._meta?.['jobfair/error']).toMatchObject({ code: 'ROLE_NOT_ALLOWED' });
  });

  it('JOBFAIR_READONLY=1 serves the read-only endpoint', async () => {
    const s = await h.seeker();
    const c = await stdioClient({ JOBFAIR_BASE_URL: base, JOBFAIR_TOKEN: s.token, JOBFAIR_READONLY: '1' });
    clients.push(c);
    const names = (await c.listTools()).tools.map((t) => t.name);
    expect(names).toContain('svc_queue_status');
    expect(names).not.toContain('svc_queue_join');
  });
});
