import fs from 'node:fs';
import path from 'node:path';
import {
  checkDocs,
  checkMap,
  decisionRecords,
  paragraphs,
  PARAGRAPH_LIMIT,
  renderDecisionsIndex,
  renderMeasurementsIndex,
} from '#dev/docs-check';

/**
 * The front door stays walkable: a short README, links that resolve, paragraphs a reader can take
 * in at once, a decisions index that lists every record with its status, and a code map that names
 * every capability folder and module (`npm run docs:check`).
 */
const ROOT = path.resolve(__dirname, '..', '..');

describe('docs', () => {
  it('keeps the README at most 150 lines', () => {
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });

  it('has every relative link resolving and no paragraph over the limit', () => {
    expect(checkDocs()).toEqual([]);
  });

  it('indexes every decision record with a status, and every measurement', () => {
    const records = decisionRecords();
    expect(records.length).toBeGreaterThan(70);
    expect(records.filter((r) => !r.status).map((r) => r.file)).toEqual([]);
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'decisions', 'README.md'), 'utf8')).toBe(renderDecisionsIndex());
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'measurements', 'README.md'), 'utf8')).toBe(
      renderMeasurementsIndex(),
    );
  });

  it('the checks catch what they promise (an unlisted design page, a long paragraph, a broken link)', () => {
    const tmp = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'docs-check-'));
    fs.mkdirSync(path.join(tmp, 'docs'));
    fs.writeFileSync(
      path.join(tmp, 'README.md'),
      `${'word '.repeat(PARAGRAPH_LIMIT / 4)}\n\n[gone](docs/missing.md) and [here](docs/a.md#nowhere)\n`,
    );
    fs.writeFileSync(
      path.join(tmp, 'docs', 'a.md'),
      '# A page\n\n- a short item\n- another\n\n| a table row may be long | ' + 'x'.repeat(900) + ' |\n',
    );
    fs.mkdirSync(path.join(tmp, 'docs', 'design'));
    fs.writeFileSync(path.join(tmp, 'docs', 'design', 'README.md'), '# Design pages\n');
    fs.writeFileSync(path.join(tmp, 'docs', 'design', 'unlisted.md'), '# Unlisted\n');
    const problems = checkDocs(tmp).map((f) => f.problem);
    expect(problems).toEqual([
      'does not list the design page unlisted.md',
      expect.stringMatching(/^paragraph of \d+ characters/),
      'link to a missing file: docs/missing.md',
      'link to a missing heading: docs/a.md#nowhere',
    ]);
    expect(paragraphs('- one\n- two\n\ntext\ncontinued').map((p) => p.text)).toEqual([
      '- one',
      '- two',
      'text continued',
    ]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('names every capability folder and source module in the map', () => {
    expect(checkMap()).toEqual([]);
  });

  it('the map check reports a module, a folder and a capability the map leaves out, and a name left behind', () => {
    const tmp = fs.mkdtempSync(path.join(require('node:os').tmpdir(), 'docs-map-'));
    const write = (rel: string, text = 'export {};\n') => {
      fs.mkdirSync(path.dirname(path.join(tmp, rel)), { recursive: true });
      fs.writeFileSync(path.join(tmp, rel), text);
    };
    write(
      'docs/ARCHITECTURE.md',
      [
        '# Map',
        '',
        '## Capabilities',
        '',
        '| capability | `apps/api/src/<cap>/` | `db/<cap>/` |',
        '|---|---|---|',
        '| `things` (a capability) | `things-*`, `split-service/`, `moved-away` | `things-repository` |',
        '',
      ].join('\n'),
    );
    write('db/README.md', '`things/`: `things-repository`\n');
    write('apps/api/src/things/things-routes.ts');
    write('apps/api/src/things/things-routes.test.ts');
    write('apps/api/src/things/split-service/checkout.ts');
    write('apps/api/src/things/things-service/by-prefix.ts');
    write('apps/api/src/things/planted-module.ts');
    write('apps/api/src/things/unnamed-folder/inside.ts');
    write('apps/api/src/plugins/shared-plugin.ts');
    write('db/things/things-repository.ts');
    write('db/things/planted-repository.ts');
    write('db/migrations/20260101000000_any.ts');
    write('db/others/others-repository.ts');
    expect(checkMap(tmp).map((f) => `${f.file}: ${f.problem}`)).toEqual([
      "docs/ARCHITECTURE.md: the `things` row's `apps/api/src/<cap>/` cell does not name `planted-module`, `unnamed-folder/`",
      "docs/ARCHITECTURE.md: the `things` row's `apps/api/src/<cap>/` cell names `moved-away`, not in apps/api/src/things/",
      'docs/ARCHITECTURE.md: no row for the capability `others` (db/others/)',
      'db/README.md: does not name `others/`, `others-repository` (db/others/)',
      "docs/ARCHITECTURE.md: the `things` row's `db/<cap>/` cell does not name `planted-repository`",
      'db/README.md: does not name `planted-repository` (db/things/)',
    ]);
    fs.rmSync(tmp, { recursive: true, force: true });
  });
});
