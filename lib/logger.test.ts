import { loggableUrl } from './logger';

describe('loggableUrl', () => {
  it('masks invite tokens in the path and secret query parameters, keeps the rest', () => {
    expect(loggableUrl('/invites/abc123DEF')).toBe('/invites/[redacted]');
    expect(loggableUrl('/invites/abc123/accept')).toBe('/invites/[redacted]/accept');
    expect(loggableUrl('/rooms/5f0c?t=secret-room-token')).toBe('/rooms/5f0c?t=%5Bredacted%5D');
    expect(loggableUrl('/rooms/5f0c/signal?t=x&role=seeker')).toBe('/rooms/5f0c/signal?t=%5Bredacted%5D&role=seeker');
    expect(loggableUrl('/api/v1/jobs/search?skills=go,rust&limit=5')).toBe('/api/v1/jobs/search?skills=go%2Crust&limit=5');
    expect(loggableUrl('/api/v1/profile')).toBe('/api/v1/profile');
  });
});
