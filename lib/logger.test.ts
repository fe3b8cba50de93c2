import { loggableUrl, requestLogLevel, wantsPrettyLogs } from './logger';

describe('loggableUrl', () => {
  it('masks invite tokens in the path and secret query parameters, keeps the rest', () => {
    expect(loggableUrl('/invites/abc123DEF')).toBe('/invites/[redacted]');
    expect(loggableUrl('/invites/abc123/accept')).toBe('/invites/[redacted]/accept');
    expect(loggableUrl('/rooms/5f0c?t=secret-room-token')).toBe('/rooms/5f0c?t=%5Bredacted%5D');
    expect(loggableUrl('/rooms/5f0c/signal?t=x&role=seeker')).toBe('/rooms/5f0c/signal?t=%5Bredacted%5D&role=seeker');
    expect(loggableUrl('/api/v1/jobs/search?skills=go,rust&limit=5')).toBe(
      '/api/v1/jobs/search?skills=go%2Crust&limit=5',
    );
    expect(loggableUrl('/api/v1/profile')).toBe('/api/v1/profile');
  });
});

describe('terminal logging', () => {
  it('is readable on a terminal and JSON for machines, unless LOG_FORMAT says otherwise', () => {
    expect(wantsPrettyLogs({ LOG_FORMAT: 'auto' }, { isTTY: true })).toBe(true);
    expect(wantsPrettyLogs({ LOG_FORMAT: 'auto' }, { isTTY: false })).toBe(false);
    expect(wantsPrettyLogs({}, {})).toBe(false);
    expect(wantsPrettyLogs({ LOG_FORMAT: 'json' }, { isTTY: true })).toBe(false);
    expect(wantsPrettyLogs({ LOG_FORMAT: 'pretty' }, { isTTY: false })).toBe(true);
  });

  it('logs writes and failures at info/warn, and reads, polls, static files and probes at debug', () => {
    expect(requestLogLevel('POST', '/api/v1/queue/join', 200)).toBe('info');
    expect(requestLogLevel('POST', '/matches/m1/accept', 409)).toBe('info');
    expect(requestLogLevel('GET', '/api/v1/queue/status', 200)).toBe('debug');
    expect(requestLogLevel('GET', '/static/app.js?v=3', 200)).toBe('debug');
    expect(requestLogLevel('GET', '/healthz', 200)).toBe('debug');
    expect(requestLogLevel('GET', '/api/v1/matches', 500)).toBe('warn');
  });
});
