import { createHmac } from 'node:crypto';
import { Writable } from 'node:stream';
import pino from 'pino';
import { mintTurnCredential, roomIceConfig } from './room-ice';
import { loadConfig, ConfigError } from '#lib/config';
import { REDACT_PATHS } from '#lib/logger';

const base = {
  turnSecret: 'a-shared-secret-of-the-turn-server',
  appSecret: 'app-secret',
  matchId: '5f0c6a58-0d7e-4b0e-9d55-0c1e8f6f9a11',
  expiresAt: new Date('2026-11-26T13:00:00Z'),
};

describe('TURN REST API credentials for the built-in room', () => {
  it('username is "<expiry>:<opaque room tag>-<side>", password base64 HMAC-SHA1(secret, username)', () => {
    const c = mintTurnCredential({ ...base, role: 'seeker' });
    expect(c.username).toMatch(new RegExp(`^${base.expiresAt.getTime() / 1000}:room-[0-9a-f]{16}-s$`));
    expect(c.credential).toBe(createHmac('sha1', base.turnSecret).update(c.username).digest('base64'));
    // Nothing about the person: neither the match id nor a user id appears in what the TURN server logs.
    expect(c.username).not.toContain(base.matchId);
    const r = mintTurnCredential({ ...base, role: 'recruiter' });
    expect(r.username.split('-').slice(0, -1)).toEqual(c.username.split('-').slice(0, -1));
    expect(r.username.endsWith('-r')).toBe(true);
  });

  it('lists STUN and TURN from configuration; no TURN entry without a secret; relay policy passed on', () => {
    const config = loadConfig(
      {},
      {
        ROOM_STUN_URLS: 'stun:turn.example.org:3478',
        ROOM_TURN_URLS:
          'turn:turn.example.org:3478?transport=udp, turn:turn.example.org:3478?transport=tcp,turns:turn.example.org:443?transport=tcp',
        ROOM_TURN_SECRET: base.turnSecret,
        ROOM_ICE_TRANSPORT_POLICY: 'relay',
      },
    );
    const ice = roomIceConfig(config, { ...base, role: 'seeker' });
    expect(ice.iceTransportPolicy).toBe('relay');
    expect(ice.iceServers[0]).toEqual({ urls: ['stun:turn.example.org:3478'] });
    expect(ice.iceServers[1].urls).toEqual([
      'turn:turn.example.org:3478?transport=udp',
      'turn:turn.example.org:3478?transport=tcp',
      'turns:turn.example.org:443?transport=tcp',
    ]);
    expect(ice.iceServers[1].credential).toBeTruthy();
    expect(roomIceConfig(loadConfig({}), { ...base, role: 'seeker' })).toEqual({
      iceServers: [],
      iceTransportPolicy: 'all',
    });
  });

  it('refuses a TURN URL list without its secret, relay without TURN, and a wrong scheme', () => {
    expect(() => loadConfig({}, { ROOM_TURN_URLS: 'turn:x:3478' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { ROOM_ICE_TRANSPORT_POLICY: 'relay' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { ROOM_STUN_URLS: 'turn:x:3478' })).toThrow(/stun/);
  });

  it('the logger redacts minted credentials and the shared secret', () => {
    let out = '';
    const log = pino(
      { redact: { paths: REDACT_PATHS, censor: '[redacted]' } },
      new Writable({ write: (c, _e, cb) => ((out += c), cb()) }),
    );
    const ice = roomIceConfig(loadConfig({}, { ROOM_TURN_URLS: 'turn:x:3478', ROOM_TURN_SECRET: base.turnSecret }), {
      ...base,
      role: 'seeker',
    });
    log.info({ ice, config: { ROOM_TURN_SECRET: base.turnSecret } }, 'room');
    log.info(ice, 'room');
    expect(out).not.toContain(ice.iceServers[0].credential!);
    expect(out).not.toContain(base.turnSecret);
  });
});
