import { ConfigError, loadConfig } from './config';

describe('renamed variables (CONFIG_ALIASES)', () => {
  it('reads OUTBOUND_HTTP_ALLOW_LOOPBACK, and WEBHOOK_ALLOW_LOOPBACK as its former name', () => {
    expect(loadConfig({}).OUTBOUND_HTTP_ALLOW_LOOPBACK).toBe(false);
    expect(loadConfig({ OUTBOUND_HTTP_ALLOW_LOOPBACK: 'true' }).OUTBOUND_HTTP_ALLOW_LOOPBACK).toBe(true);
    expect(loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'true' }).OUTBOUND_HTTP_ALLOW_LOOPBACK).toBe(true);
    expect(loadConfig({}, { WEBHOOK_ALLOW_LOOPBACK: 'true' }).OUTBOUND_HTTP_ALLOW_LOOPBACK).toBe(true);
  });

  it('lets the new name win when both are set (an empty one counts as unset)', () => {
    const both = { OUTBOUND_HTTP_ALLOW_LOOPBACK: 'false', WEBHOOK_ALLOW_LOOPBACK: 'true' };
    expect(loadConfig(both).OUTBOUND_HTTP_ALLOW_LOOPBACK).toBe(false);
    const empty = { OUTBOUND_HTTP_ALLOW_LOOPBACK: '', WEBHOOK_ALLOW_LOOPBACK: 'true' };
    expect(loadConfig(empty).OUTBOUND_HTTP_ALLOW_LOOPBACK).toBe(true);
  });

  it('names the variable as it was set in an error', () => {
    expect(() => loadConfig({ WEBHOOK_ALLOW_LOOPBACK: 'maybe' })).toThrow(/- WEBHOOK_ALLOW_LOOPBACK: /);
    expect(() => loadConfig({ OUTBOUND_HTTP_ALLOW_LOOPBACK: 'maybe' })).toThrow(/- OUTBOUND_HTTP_ALLOW_LOOPBACK: /);
    const production = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(32) };
    expect(() => loadConfig({ ...production, WEBHOOK_ALLOW_LOOPBACK: 'true' })).toThrow(
      new ConfigError(['WEBHOOK_ALLOW_LOOPBACK: must be false when NODE_ENV=production']),
    );
    expect(() => loadConfig({ ...production, OUTBOUND_HTTP_ALLOW_LOOPBACK: 'true' })).toThrow(
      /OUTBOUND_HTTP_ALLOW_LOOPBACK: must be false/,
    );
  });
});
