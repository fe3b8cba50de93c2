import fs from 'node:fs';
import path from 'node:path';
import { checkDocs, decisionRecords, paragraphs, PARAGRAPH_LIMIT, renderDecisionsIndex } from '#dev/docs-check';

/**
 * The front door stays walkable: a short README, links that resolve, paragraphs a reader can take
 * in at once, and a decisions index that lists every record with its status (`npm run docs:check`).
 */
const ROOT = path.resolve(__dirname, '..', '..');

describe('docs', () => {
  it('keeps the README at most 150 lines', () => {
    expect(fs.readFileSync(path.join(ROOT, 'README.md'), 'utf8').trimEnd().split('\n').length).toBeLessThanOrEqual(150);
  });

  it('has every relative link resolving and no paragraph over the limit', () => {
    expect(checkDocs()).toEqual([]);
  });

  it('indexes every decision record with a status', () => {
    const records = decisionRecords();
    expect(records.length).toBeGreaterThan(70);
    expect(records.filter((r) => !r.status).map((r) => r.file)).toEqual([]);
    expect(fs.readFileSync(path.join(ROOT, 'docs', 'decisions', 'README.md'), 'utf8')).toBe(renderDecisionsIndex());
  });

  it('the checks catch what they promise (a long paragraph, a broken link)', () => {
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
    const problems = checkDocs(tmp).map((f) => f.problem);
    expect(problems).toEqual([
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
});
