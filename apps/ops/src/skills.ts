import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '#lib/config';
import { addToVocabulary, createSkillResolver, type SkillVocabulary } from '#domain/matchmaking/skills';
import { createKnex } from '#db/knex';
import { createSkillsRepository } from '#db/matchmaking/skills-repository';
import { scriptDatabaseUrl } from './services';

/**
 * `npm run skills -- <command>`: the skill vocabulary's operator commands (docs/design/matching.md).
 *
 *   add <skill-id> --alias <spelling> [--alias …] [--label <label>] [--category <category>]
 *       adds aliases to a skill, or a new skill (a new id needs --label), to
 *       domain/matchmaking/skill-vocabulary.json, then syncs the database (below)
 *   sync
 *       copies the vocabulary file into the database and re-resolves every stored job and profile
 *       whose skills now resolve differently (run after deploying a changed vocabulary; idempotent)
 *
 * --file <path> names another vocabulary file (tests). Uses DATABASE_URL (default: `npm start`'s embedded PostgreSQL). The API and the worker read the
 * vocabulary file when they start: restart them (deploy) for searches and scores to use an addition.
 */
export const VOCABULARY_FILE = path.resolve(__dirname, '../../../domain/matchmaking/skill-vocabulary.json');

/** The vocabulary file as written: one skill per line, so an addition is a one-line diff. */
export function formatVocabularyFile(about: string, vocabulary: SkillVocabulary): string {
  const lines = vocabulary.skills.map((s) => `    ${JSON.stringify(s)}`);
  return `{\n  "about": ${JSON.stringify(about)},\n  "skills": [\n${lines.join(',\n')}\n  ]\n}\n`;
}

const USAGE =
  'usage: npm run skills -- add <skill-id> --alias <spelling> [--alias …] [--label <label>] [--category <c>]\n' +
  '       npm run skills -- sync\n' +
  '  (both take --file <vocabulary.json>; default domain/matchmaking/skill-vocabulary.json)';

async function main() {
  const { positionals, values } = parseArgs({
    allowPositionals: true,
    options: {
      alias: { type: 'string', multiple: true, default: [] },
      label: { type: 'string' },
      category: { type: 'string' },
      file: { type: 'string', default: VOCABULARY_FILE },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const [command, id] = positionals;
  if (values.help || !command || !['add', 'sync'].includes(command) || (command === 'add' && !id)) {
    console.log(USAGE);
    process.exit(values.help ? 0 : 2);
  }
  const file = JSON.parse(fs.readFileSync(values.file, 'utf8')) as SkillVocabulary & { about: string };
  let vocabulary: SkillVocabulary = file;
  if (command === 'add') {
    vocabulary = addToVocabulary(file, { id, label: values.label, category: values.category, aliases: values.alias });
    fs.writeFileSync(values.file, formatVocabularyFile(file.about, vocabulary));
    console.log(`${path.relative(process.cwd(), values.file)}: '${id}' updated (commit it with the change)`);
  }
  const knex = createKnex(scriptDatabaseUrl(loadConfig()), 1);
  try {
    const r = await createSkillsRepository(knex).sync(createSkillResolver(vocabulary));
    console.log(`database: ${r.spellings} spellings; re-resolved ${r.jobs} job(s) and ${r.profiles} profile(s)`);
  } finally {
    await knex.destroy();
  }
}

if (require.main === module) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exit(1);
  });
}
