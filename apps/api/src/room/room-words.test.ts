import fs from 'node:fs';
import path from 'node:path';
import { ROOM_SCRIPT_WORDS } from '../web/messages';

/**
 * The built-in room's scripts (room-page.js, what both engines show, and room-peer.js, the peer to
 * peer call) say nothing of their own: every word they show comes from the catalogue's
 * ROOM_SCRIPT_WORDS (passed in `data-words`), and every key they ask for is there.
 */
describe('the room scripts take their words from the message catalogue', () => {
  const source = ['room-page.js', 'room-peer.js']
    .map((f) => fs.readFileSync(path.join(__dirname, '..', 'web', 'static', 'room', f), 'utf8'))
    .join('\n');
  const code = source
    .split('\n')
    .filter((l) => !/^\s*(\/\/|\*|\/\*\*)/.test(l))
    .join('\n');

  it('asks only for keys the catalogue has', () => {
    // w('key'), or w(kind === 'videoinput' ? 'key1' : 'key2')
    const asked = [
      ...code.matchAll(/\bw\((?:[^'()]*'videoinput'\s*\?\s*)?'([A-Za-z]+)'(?:\s*:\s*'([A-Za-z]+)')?/g),
    ].flatMap((m) => [m[1], m[2]].filter(Boolean));
    expect(asked.length).toBeGreaterThan(20);
    expect(asked.filter((k) => !(k in ROOM_SCRIPT_WORDS))).toEqual([]);
  });

  it('holds no sentence of its own', () => {
    // A string literal that starts with a capital and has a space is text a person reads.
    const sentences = [...code.matchAll(/'([A-Z][a-z]+ [^']*)'/g)].map((m) => m[1]);
    expect(sentences).toEqual([]);
  });
});
