import fs from 'node:fs';
import path from 'node:path';
import { seal, unseal } from '#lib/sealed';

/**
 * The demo users' API tokens, kept sealed (AES-256-GCM under the development master key) in
 * DATA_DIR/demo-tokens.sealed: the database keeps only hashes, and `npm start` must show the same
 * token every time instead of minting a new one per start. Read by the seed and by the simulator's
 * activity (inside the activity: tokens never enter workflow history).
 */
export interface StoredDemoToken {
  token: string;
  expiresAt: string;
}
const PURPOSE = 'demo-tokens';

export function createDemoTokenStore(dataDir: string, masterKey: string) {
  const file = path.join(dataDir, 'demo-tokens.sealed');
  return {
    file,
    read(): Record<string, StoredDemoToken> {
      if (!fs.existsSync(file)) return {};
      try {
        return JSON.parse(unseal(fs.readFileSync(file, 'utf8').trim(), masterKey, PURPOSE)) as Record<
          string,
          StoredDemoToken
        >;
      } catch {
        // Sealed under another master key (APP_SECRET changed) or damaged: mint anew.
        return {};
      }
    },
    write(tokens: Record<string, StoredDemoToken>): void {
      fs.mkdirSync(dataDir, { recursive: true });
      fs.writeFileSync(file, `${seal(JSON.stringify(tokens), masterKey, PURPOSE)}\n`, { mode: 0o600 });
    },
  };
}
export type DemoTokenStore = ReturnType<typeof createDemoTokenStore>;
