import { escapeHtml, SafeHtml } from './html';

const stripTags = (s: string): string =>
  s
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** A header cell whose only content is visually hidden (an "Actions" column): no label on the card. */
const hiddenOnly = (inner: string): boolean => /^\s*<span class="visually-hidden">[\s\S]*<\/span>\s*$/.test(inner);

const decode = (s: string): string =>
  s.replace(/&(amp|lt|gt|quot|#39);/g, (_, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e]!);

/**
 * A data table that becomes a stack of cards on narrow screens (app.css, `.table-cards`): each body
 * cell gets `data-label` with its column's header text, which the narrow layout shows before the
 * value, so no column ("Accept by") is scrolled off a phone's screen. Takes the rendered
 * `<div class="table-wrap"><table>…</table></div>` (one table, one header row, no nested tables);
 * wide screens see the same table as before.
 */
export function cardTable(markup: SafeHtml): SafeHtml {
  const src = markup.value;
  const head = /<thead\b[^>]*>([\s\S]*?)<\/thead>/.exec(src)?.[1] ?? '';
  const labels = [...head.matchAll(/<th(?=[\s>])[^>]*>([\s\S]*?)<\/th>/g)].map((m) =>
    hiddenOnly(m[1]) ? '' : decode(stripTags(m[1])),
  );
  const withLabels = src.replace(/<tbody\b[^>]*>[\s\S]*?<\/tbody>/, (body) =>
    body.replace(/<tr\b[^>]*>[\s\S]*?<\/tr>/g, (row) => {
      let n = 0;
      return row.replace(/<(td|th)(?=[\s>])([^>]*)>/g, (cell, tag: string, attrs: string) => {
        const label = labels[n++];
        if (!label || /\sdata-label=/.test(attrs)) return cell;
        return `<${tag}${attrs} data-label="${escapeHtml(label)}">`;
      });
    }),
  );
  return new SafeHtml(withLabels.replace(/class="table-wrap"/, 'class="table-wrap table-cards"'));
}
