import shipped from './skill-vocabulary.json';

/**
 * Skills as one vocabulary: what a person types ("Postgres", "k8s", "Node JS") resolves to a
 * canonical skill id ("postgresql", "kubernetes", "nodejs"), so search, the match score, the wait
 * explanation and the matchmaker compare ids, never spellings. The vocabulary is data
 * (skill-vocabulary.json); this file is the pure resolver over it.
 *
 * Resolution: normalise (Unicode NFKC, trim, lower-case, runs of whitespace as one space), look the
 * text up among every skill's id, label and aliases; failing that, look its compact form up (the
 * normalised text without spaces, dots, hyphens, underscores and slashes: "node-js", "Type Script").
 * Text that names no skill stays a free-text skill whose id is its normalised text, so it still
 * matches itself — as every skill did before the vocabulary. A canonical id is itself an alias of
 * its skill, so a free-text id can never equal the id of a different skill.
 */

export interface SkillEntry {
  /** Stable slug; never changes once shipped (stored in jobs.skill_ids and profiles.skill_ids). */
  id: string;
  /** How the skill is shown (the suggestion lists). */
  label: string;
  category: string;
  /** Other spellings, punctuation and short forms people type for it. */
  aliases: string[];
}

export interface SkillVocabulary {
  skills: SkillEntry[];
}

/** Normalised text: NFKC, trimmed, lower-cased, whitespace runs collapsed to one space. */
export const normaliseSkill = (s: string): string => s.normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');

/** The compact form of normalised text: without spaces, dots, hyphens, underscores and slashes. */
export const compactSkill = (normalised: string): string => normalised.replace(/[\s._/-]+/g, '');

/** Every spelling of an entry that resolves to it: its id, its label and its aliases. */
export const spellingsOf = (e: SkillEntry): string[] => [e.id, e.label, ...e.aliases];

export interface SkillResolver {
  /** The canonical id of a typed skill (a free-text id for text that names no skill; '' for blank text). */
  idOf(typed: string): string;
  /** The distinct ids of typed skills, in first-seen order, blanks dropped. */
  idsOf(typed: readonly string[]): string[];
  /** The canonical entry of a typed skill, if it names one. */
  entryOf(typed: string): SkillEntry | undefined;
  /** The lookup tables as rows (the database's copy, jobfair_skill_spellings(), which its triggers resolve with). */
  spellings(): SkillSpelling[];
  readonly vocabulary: SkillVocabulary;
}

/** One key of the resolver's lookup: an exact (normalised) spelling, or a compact form, and its skill. */
export interface SkillSpelling {
  form: 'exact' | 'compact';
  spelling: string;
  skill_id: string;
}

/**
 * A resolver over a vocabulary. Throws when the vocabulary is ambiguous (one spelling, or one
 * compact form, of two skills; an id used twice): the data-integrity rule the tests hold the
 * shipped file to, checked again here so an operator's addition cannot silently split a skill.
 */
export function createSkillResolver(vocabulary: SkillVocabulary): SkillResolver {
  const exact = new Map<string, SkillEntry>();
  const compact = new Map<string, SkillEntry>();
  const ids = new Set<string>();
  for (const e of vocabulary.skills) {
    if (ids.has(e.id)) throw new Error(`skill vocabulary: the id '${e.id}' is used twice`);
    ids.add(e.id);
    if (normaliseSkill(e.id) !== e.id) throw new Error(`skill vocabulary: the id '${e.id}' is not normalised`);
    for (const spelling of spellingsOf(e)) {
      const n = normaliseSkill(spelling);
      const c = compactSkill(n);
      for (const [map, key] of [
        [exact, n],
        [compact, c],
      ] as const) {
        const other = map.get(key);
        if (other && other !== e)
          throw new Error(`skill vocabulary: '${spelling}' names both '${other.id}' and '${e.id}'`);
        if (key) map.set(key, e);
      }
    }
  }
  const entryOfNormalised = (n: string) => exact.get(n) ?? compact.get(compactSkill(n));
  // The matchmaker resolves every listing of every job in scope: remember what was typed (bounded).
  const memo = new Map<string, string>();
  const idOf = (typed: string) => {
    let id = memo.get(typed);
    if (id !== undefined) return id;
    const n = normaliseSkill(typed);
    id = n ? (entryOfNormalised(n)?.id ?? n) : '';
    if (memo.size >= 50_000) memo.clear();
    memo.set(typed, id);
    return id;
  };
  return {
    vocabulary,
    idOf,
    idsOf(typed) {
      const out = new Set<string>();
      for (const t of typed) {
        const id = idOf(t);
        if (id) out.add(id);
      }
      return [...out];
    },
    entryOf: (typed) => entryOfNormalised(normaliseSkill(typed)),
    spellings: () => [
      ...[...exact].map(([spelling, e]) => ({ form: 'exact' as const, spelling, skill_id: e.id })),
      ...[...compact].map(([spelling, e]) => ({ form: 'compact' as const, spelling, skill_id: e.id })),
    ],
  };
}

/** The shipped vocabulary (skill-vocabulary.json). */
export const SHIPPED_SKILL_VOCABULARY: SkillVocabulary = { skills: shipped.skills };

/** The resolver of the shipped vocabulary: what every process uses. */
export const skills = createSkillResolver(SHIPPED_SKILL_VOCABULARY);

/** The canonical id of a typed skill with the shipped vocabulary (how skills are compared everywhere). */
export const skillId = (typed: string): string => skills.idOf(typed);

/** An operator's addition: aliases for a skill, which is created when its id is new (then a label is needed). */
export interface SkillAddition {
  id: string;
  label?: string;
  category?: string;
  aliases: string[];
}

/**
 * The vocabulary with an addition: aliases join the skill's list (a spelling it already has is
 * skipped); a new id makes a new skill. Throws, naming the clash, when the result is ambiguous (an
 * alias that already names another skill) or a new skill has no label.
 */
export function addToVocabulary(vocabulary: SkillVocabulary, add: SkillAddition): SkillVocabulary {
  const id = normaliseSkill(add.id);
  if (!id) throw new Error('a skill id is needed');
  const existing = vocabulary.skills.find((s) => s.id === id);
  if (!existing && !add.label?.trim()) throw new Error(`'${id}' is a new skill: give it a label`);
  const base: SkillEntry = existing ?? {
    id,
    label: add.label!.trim(),
    category: add.category?.trim() || 'Other',
    aliases: [],
  };
  const known = new Set(spellingsOf(base).map(normaliseSkill));
  const fresh = add.aliases.map((a) => a.trim()).filter((a) => a && !known.has(normaliseSkill(a)));
  const next: SkillEntry = {
    ...base,
    label: add.label?.trim() || base.label,
    category: add.category?.trim() || base.category,
    aliases: [...base.aliases, ...new Set(fresh)],
  };
  const skills = existing ? vocabulary.skills.map((s) => (s === existing ? next : s)) : [...vocabulary.skills, next];
  const result = { skills };
  createSkillResolver(result); // throws on a clash
  return result;
}
