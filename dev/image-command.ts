import fs from 'node:fs';
import path from 'node:path';

/**
 * The Node flags the production image starts the API with, read from the Dockerfile's CMD
 * (`["node", <flags…>, "dist/apps/api/src/server.js"]`, decision 0231), so the benches and
 * `npm run cluster` run the compiled API exactly as the image does and cannot drift from it.
 */
export function imageApiNodeFlags(root: string): string[] {
  const dockerfile = fs.readFileSync(path.join(root, 'Dockerfile'), 'utf8');
  const line = [...dockerfile.matchAll(/^CMD (\[.*\])\s*$/gm)].at(-1);
  if (!line) throw new Error('Dockerfile: no CMD ["node", …] line');
  const cmd = JSON.parse(line[1]) as string[];
  if (cmd[0] !== 'node' || cmd.at(-1) !== 'dist/apps/api/src/server.js')
    throw new Error(`Dockerfile CMD is not node … dist/apps/api/src/server.js: ${line[1]}`);
  return cmd.slice(1, -1);
}
