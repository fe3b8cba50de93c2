import loadHighs from 'highs';

/**
 * Maximum-weight bipartite b-matching, solved by HiGHS (the `highs` package: the HiGHS solver
 * compiled to WebAssembly) as an integer program: one 0/1 variable per edge, each node's chosen
 * edges at most its capacity, the total weight of the chosen edges as large as possible.
 *
 * The matchmaker's assignment planner (plan.ts) solves a round's entries against the events' free
 * slots with it, and the fair-day bench solves a whole day in hindsight with it (the offline
 * optimum). The constraint matrix of a bipartite b-matching is totally unimodular, so the LP
 * relaxation is already integral; the variables are still declared binary so a wrong model
 * cannot hand back fractions.
 */

export interface BEdge {
  left: string;
  right: string;
  /** Edges of weight ≤ 0 are never chosen (they cannot raise the total). */
  weight: number;
}

export interface BMatchingInput {
  edges: readonly BEdge[];
  /** Capacity of each left node (default 1). */
  leftCapacity?: ReadonlyMap<string, number>;
  /** Capacity of each right node (default 1). */
  rightCapacity?: ReadonlyMap<string, number>;
}

export interface BMatchingResult {
  /** Indexes into `edges` of the chosen edges, ascending. */
  chosen: number[];
  /** Σ weight of the chosen edges. */
  total: number;
}

type Highs = Awaited<ReturnType<typeof loadHighs>>;
let highs: Promise<Highs> | undefined;

/** The solver, loaded once per process (compiling the WebAssembly module takes a few hundred ms). */
export const solver = (): Promise<Highs> => (highs ??= loadHighs());

/** The model in CPLEX LP format, HiGHS's text input (variables x<i> for edge i). */
export function bMatchingModel(input: BMatchingInput): string {
  const { edges } = input;
  const used = edges.map((e, i) => ({ e, i })).filter(({ e }) => e.weight > 0);
  const lines: string[] = ['Maximize', ' obj:'];
  // Short lines: the LP reader takes any length, but a diff of a model stays readable.
  for (const { e, i } of used) lines.push(`  + ${fmt(e.weight)} x${i}`);
  if (!used.length) lines.push('  0 x0');
  lines.push('Subject To');
  const rows = (side: 'left' | 'right', cap: ReadonlyMap<string, number> | undefined) => {
    const byNode = new Map<string, number[]>();
    for (const { e, i } of used) {
      const node = e[side];
      const list = byNode.get(node) ?? [];
      list.push(i);
      byNode.set(node, list);
    }
    let k = 0;
    for (const [node, idx] of byNode) {
      const c = Math.max(0, Math.floor(cap?.get(node) ?? 1));
      if (idx.length <= c) continue; // never binding
      lines.push(` ${side[0]}${k++}:`);
      for (const i of idx) lines.push(`  + x${i}`);
      lines.push(`  <= ${c}`);
    }
  };
  rows('left', input.leftCapacity);
  rows('right', input.rightCapacity);
  // An LP model needs a constraint section; a trivially true row keeps it valid when none binds.
  lines.push(` always: ${used.length ? `x${used[0].i}` : 'x0'} >= 0`);
  lines.push('Binary');
  for (const { i } of used) lines.push(` x${i}`);
  if (!used.length) lines.push(' x0');
  lines.push('End');
  return lines.join('\n');
}

const fmt = (w: number) => (Number.isInteger(w) ? String(w) : w.toFixed(6));

/** Solves the b-matching; throws unless HiGHS reports an optimal solution. */
export async function solveBMatching(input: BMatchingInput): Promise<BMatchingResult> {
  const { edges } = input;
  if (!edges.some((e) => e.weight > 0)) return { chosen: [], total: 0 };
  const h = await solver();
  const solution = h.solve(bMatchingModel(input), { output_flag: false, mip_rel_gap: 0 });
  if (solution.Status !== 'Optimal') throw new Error(`b-matching: HiGHS answered ${solution.Status}`);
  const chosen: number[] = [];
  let total = 0;
  for (const [name, col] of Object.entries(solution.Columns)) {
    if (!name.startsWith('x') || col.Primal < 0.5) continue;
    const i = Number(name.slice(1));
    if (!(edges[i]?.weight > 0)) continue;
    chosen.push(i);
    total += edges[i].weight;
  }
  chosen.sort((a, b) => a - b);
  return { chosen, total };
}
