import type { MatchWithJob } from '#db/matches/matches-repository';
import { html, type SafeHtml } from '../../web/html';
import { choiceWords, scoreDetailWords } from '../../web/messages';
import { cardTable } from '../../web/tables';

const COMPONENT_LABELS: Record<string, string> = {
  essential_skills: 'Essential skills',
  bonus_skills: 'Bonus skills',
  experience: 'Experience',
  salary: 'Salary',
  location: 'Location and remote work',
};

const order = (k: string) => {
  const i = Object.keys(COMPONENT_LABELS).indexOf(k);
  return i < 0 ? 99 : i;
};

/** The match score's components: weight, score and why, and the quality floor the pair passed. */
export function scoreBreakdown(m: MatchWithJob): SafeHtml {
  const b = (m.score_breakdown ?? null) as Record<
    string,
    { weight?: number; score?: number | null; detail?: string }
  > | null;
  if (!b || typeof b !== 'object') return html``;
  // `floor` (score v2) is not a component: the quality floor the pair passed, said in words below the table.
  const floor = (b as Record<string, unknown>).floor as
    { bracket?: number; brackets?: number; min_score?: number; essential_required?: boolean } | undefined;
  return html`${cardTable(html`<div class="table-wrap"><table>
<caption class="visually-hidden">Score breakdown</caption>
<thead><tr><th scope="col">Component</th><th scope="col">Weight</th><th scope="col">Score</th><th scope="col">Why</th></tr></thead>
<tbody>${Object.entries(b)
    .filter(([k]) => k !== 'floor')
    .sort(([a], [z]) => order(a) - order(z))
    .map(([k, c]) => {
      const pct = c.score === null || c.score === undefined ? null : Math.round(c.score * 100);
      return html`<tr><th scope="row">${COMPONENT_LABELS[k] ?? choiceWords(k)}</th><td>${c.weight ?? '—'}</td>
<td>${pct === null ? html`<span class="hint">no data (left out)</span>` : html`${pct}%<div class="score-bar" aria-hidden="true"><span data-width="${pct}"></span></div>`}</td>
<td>${scoreDetailWords(c.detail ?? '')}</td></tr>`;
    })}</tbody></table></div>`)}
${floor && typeof floor.min_score === 'number' ? html`<p class="hint">Quality floor passed: a score of at least ${floor.min_score}${floor.essential_required ? ' with at least one essential skill' : ''}${typeof floor.bracket === 'number' && floor.brackets ? ` (step ${floor.bracket + 1} of ${floor.brackets}; the floor relaxes as a candidate waits)` : ''}.</p>` : ''}`;
}
