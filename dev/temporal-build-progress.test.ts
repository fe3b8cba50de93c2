import { createBuildProgress } from './go-install';

describe('Temporal CLI build progress', () => {
  it('counts downloads, then compiled packages, and says how far and how long', () => {
    const p = createBuildProgress(1300, 0);
    p.line('go: downloading github.com/temporalio/cli v1.5.1');
    p.line('go: downloading go.temporal.io/server v1.29.1');
    expect(p.summary(65_000)).toBe('Temporal CLI build: 2 modules downloaded, 1:05 elapsed');
    for (const pkg of [
      'internal/goarch',
      'go.temporal.io/server/common/log',
      'github.com/temporalio/cli/cmd/temporal',
      'gopkg.in/yaml.v3',
    ])
      p.line(pkg);
    p.line('');
    expect(p.counts).toEqual({ downloads: 2, compiled: 4, lastError: '' });
    expect(p.summary(125_000)).toBe('Temporal CLI build: 4 of ~1300 packages compiled (0%), 2:05 elapsed');
    p.line('# go.temporal.io/server/common: compile error');
    expect(p.counts.compiled).toBe(4);
    expect(p.counts.lastError).toMatch(/compile error/);
  });
});
