import { execFile } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { createHarness, type Harness } from '../../helpers/harness';
import { listen } from './helpers';

const run = promisify(execFile);
const CLI = require.resolve('@modelcontextprotocol/conformance/dist/index.js');
const DOC = path.join(__dirname, '../../../docs/design/mcp.md');

/**
 * The official conformance package's server scenarios against our running `/mcp`. The ones that apply
 * run and must pass every check; every other one is listed with why it does not apply, so a scenario a
 * new version of the package adds fails here until it is classified (and the table in
 * docs/design/mcp.md, which this test also checks, says so).
 */
const APPLICABLE = ['server-initialize', 'ping', 'tools-list', 'dns-rebinding-protection'] as const;
const FIXTURE_TOOL = "calls a fixture tool of the package's reference server (";
const NOT_APPLICABLE: Record<string, string> = {
  'logging-set-level': 'no logging capability: tool results carry what an agent needs',
  'completion-complete': 'no prompts or resource templates to complete',
  'tools-call-simple-text': `${FIXTURE_TOOL}test_simple_text)`,
  'tools-call-image': `${FIXTURE_TOOL}test_image_content)`,
  'tools-call-audio': `${FIXTURE_TOOL}test_audio_content)`,
  'tools-call-embedded-resource': `${FIXTURE_TOOL}test_embedded_resource)`,
  'tools-call-mixed-content': `${FIXTURE_TOOL}test_multiple_content_types)`,
  'tools-call-with-logging': `${FIXTURE_TOOL}test_tool_with_logging)`,
  'tools-call-error': `${FIXTURE_TOOL}test_error_handling); our error results are tested per kind`,
  'tools-call-with-progress': `${FIXTURE_TOOL}test_tool_with_progress); svc_queue_status's progress is tested`,
  'tools-call-sampling': 'the server never asks the client for sampling',
  'tools-call-elicitation': 'the server never elicits: a person decides in the web app',
  'json-schema-2020-12': `${FIXTURE_TOOL}json_schema_2020_12_tool); our schemas are 2020-12 and validated`,
  'elicitation-sep1034-defaults': 'the server never elicits',
  'elicitation-sep1330-enums': 'the server never elicits',
  'server-sse-polling': 'stateless Streamable HTTP: no session, no resumable SSE stream',
  'server-sse-multiple-streams': 'stateless Streamable HTTP: no session, no standalone GET stream',
  'resources-list': 'no resources capability',
  'resources-read-text': 'no resources capability',
  'resources-read-binary': 'no resources capability',
  'resources-templates-read': 'no resources capability',
  'resources-subscribe': 'no resources capability',
  'resources-unsubscribe': 'no resources capability',
  'prompts-list': 'no prompts capability',
  'prompts-get-simple': 'no prompts capability',
  'prompts-get-with-args': 'no prompts capability',
  'prompts-get-embedded-resource': 'no prompts capability',
  'prompts-get-with-image': 'no prompts capability',
};

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | string;
  description?: string;
  errorMessage?: string;
}

describe('MCP conformance package (@modelcontextprotocol/conformance): the server scenarios that apply', () => {
  let h: Harness;
  let url: string;
  let out: string;
  beforeAll(async () => {
    h = await createHarness();
    url = `${await listen(h)}/mcp`;
    out = await mkdtemp(path.join(tmpdir(), 'mcp-conformance-'));
  });
  afterAll(async () => {
    await h?.close();
    if (out) await rm(out, { recursive: true, force: true });
  });

  it('every server scenario of the package is either run here or listed as not applying, in the docs too', async () => {
    // execFile, not execFileSync: the server under test answers from this process's event loop.
    const { stdout } = await run(process.execPath, [CLI, 'list', '--server']);
    const scenarios = [...stdout.matchAll(/^\s+- ([a-z0-9-]+)/gm)].map((m) => m[1]);
    expect(scenarios.length).toBeGreaterThan(20);
    expect([...scenarios].sort()).toEqual([...APPLICABLE, ...Object.keys(NOT_APPLICABLE)].sort());
    const doc = await readFile(DOC, 'utf8');
    for (const s of scenarios) expect([s, doc.includes(`\`${s}\``)]).toEqual([s, true]);
  });

  for (const scenario of APPLICABLE) {
    it(`${scenario}: every check passes`, async () => {
      const dir = path.join(out, scenario);
      await run(process.execPath, [CLI, 'server', '--url', url, '--scenario', scenario, '-o', dir], {
        timeout: 60_000,
      }).catch((e: Error & { stdout?: string }) => e); // a failed check exits 1: the checks below say which
      const [runDir] = await readdir(dir);
      const checks = JSON.parse(await readFile(path.join(dir, runDir, 'checks.json'), 'utf8')) as Check[];
      expect(checks.length).toBeGreaterThan(0);
      const failed = checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING');
      expect(failed.map((c) => `${c.id}: ${c.errorMessage ?? c.description}`)).toEqual([]);
      expect(checks.some((c) => c.status === 'SUCCESS')).toBe(true);
    });
  }
});
