import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../../..');
/** The committed client: `clients/python/jobfair_api` (generated) beside `jobfair_client` (the thin layer). */
export const CLIENT_DIR = path.resolve(__dirname, '..');
export const PACKAGE = 'jobfair_api';
const CONFIG = path.join(CLIENT_DIR, 'openapi-python-client.yaml');
/** openapi-python-client and the ruff it formats with, pinned in .ci/requirements-python-client.txt. */
export const VENV_BIN = process.env.JOBFAIR_PYTHON_VENV_BIN ?? path.join(ROOT, '.ci', 'venv', 'bin');

type Doc = {
  webhooks?: Record<string, { post?: { requestBody?: { content?: Record<string, { schema?: { $ref?: string } }> } } }>;
};

/** `MatchMatchedEvent` → `match_matched_event` (the generator's module names). */
const snake = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toLowerCase();

/**
 * openapi-python-client generates a model for every `components.schemas` entry but reads no
 * `webhooks` section, so the event payload models (MatchMatchedEvent, …) are there without saying
 * which event type each one is. This module adds that: event type → model, from the document's
 * `webhooks` section (each entry's request body is a `$ref` to its component).
 */
export function webhookEventsModule(doc: Doc): string {
  const entries = Object.entries(doc.webhooks ?? {}).map(([type, item]) => {
    const ref = item.post?.requestBody?.content?.['application/json']?.schema?.$ref ?? '';
    const m = /^#\/components\/schemas\/(.+)$/.exec(ref);
    if (!m) throw new Error(`webhooks.${type}: the request body is not a $ref to a component schema`);
    return { type, model: m[1] };
  });
  const models = [...new Set(entries.map((e) => e.model))].sort();
  return [
    '"""Webhook event type → payload model, from the OpenAPI document\'s `webhooks` section.',
    '',
    'Written by clients/python/scripts/generate.ts beside the generated package. Do not edit.',
    '"""',
    '',
    ...models.map((m) => `from .models.${snake(m)} import ${m}`),
    '',
    'WEBHOOK_EVENT_MODELS = {',
    ...entries.map((e) => `    "${e.type}": ${e.model},`),
    '}',
    '',
    '__all__ = (',
    '    "WEBHOOK_EVENT_MODELS",',
    ...models.map((m) => `    "${m}",`),
    ')',
    '',
  ].join('\n');
}

/**
 * Generates the package from the document into `<outDir>/jobfair_api` (replacing it): the
 * generator with `--meta none` (the package only; clients/python/pyproject.toml is ours), ruff as
 * its formatter without a cache in the tree, then webhook_events.py.
 */
export function generatePackage(docFile: string, outDir: string): string {
  const doc = JSON.parse(fs.readFileSync(docFile, 'utf8')) as Doc;
  const target = path.join(outDir, PACKAGE);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-pyclient-'));
  try {
    const generated = path.join(tmp, PACKAGE);
    const bin = path.join(VENV_BIN, 'openapi-python-client');
    if (!fs.existsSync(bin))
      throw new Error(
        `${bin} not found: run .ci/run, or .ci/venv/bin/pip install -r .ci/requirements-python-client.txt`,
      );
    const r = spawnSync(
      bin,
      ['generate', '--path', docFile, '--config', CONFIG, '--meta', 'none', '--output-path', generated],
      {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${VENV_BIN}${path.delimiter}${process.env.PATH ?? ''}`, RUFF_NO_CACHE: 'true' },
      },
    );
    // The generator exits 0 with warnings for parts it skipped: a skipped operation is a bug here.
    if (r.status !== 0 || /Warning|Skipping|Unable/i.test(`${r.stdout}${r.stderr}`))
      throw new Error(`openapi-python-client failed or skipped parts (exit ${r.status}):\n${r.stdout}${r.stderr}`);
    fs.writeFileSync(path.join(generated, 'webhook_events.py'), webhookEventsModule(doc));
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(outDir, { recursive: true });
    fs.cpSync(generated, target, { recursive: true });
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return target;
}

/**
 * `generate.ts [<url or file of the document>] [--out <dir>]`: default the local service's
 * document and clients/python (the drift test writes into a temp dir and compares).
 */
async function main() {
  const args = process.argv.slice(2);
  const outAt = args.indexOf('--out');
  const outDir = outAt >= 0 ? path.resolve(args[outAt + 1]) : CLIENT_DIR;
  const source =
    args.find((a, i) => !a.startsWith('--') && (outAt < 0 || i !== outAt + 1)) ??
    process.env.JOBFAIR_OPENAPI_URL ??
    'http://localhost:3000/api/v1/openapi.json';
  let docFile = source;
  if (/^https?:/.test(source)) {
    const res = await fetch(source);
    if (!res.ok) throw new Error(`GET ${source}: ${res.status}`);
    docFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'jobfair-openapi-')), 'openapi.json');
    fs.writeFileSync(docFile, await res.text());
  }
  const target = generatePackage(docFile, outDir);
  console.log(`wrote ${path.relative(process.cwd(), target)} from ${source}`);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
