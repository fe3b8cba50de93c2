import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { missingPlatformEntries, platformOf } from '#dev/lock-platform-entries';

// `npm ci` refuses a lock that lacks an optional platform binary's entry (docs/decisions/0150).
describe('package-lock.json', () => {
  const root = resolve(__dirname, '..', '..');
  const lock = JSON.parse(readFileSync(resolve(root, 'package-lock.json'), 'utf8'));
  const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8'));

  it('has an entry for every optional platform package of every locked package', () => {
    expect(Object.keys(missingPlatformEntries(lock))).toEqual([]);
  });

  it('locks exactly the versions package.json pins', () => {
    const wanted = { ...pkg.dependencies, ...pkg.devDependencies } as Record<string, string>;
    const locked = Object.fromEntries(
      Object.keys(wanted).map((name) => [name, lock.packages[`node_modules/${name}`]?.version]),
    );
    expect(locked).toEqual(wanted);
    expect(lock.packages[''].dependencies).toEqual(pkg.dependencies);
    expect(lock.packages[''].devDependencies).toEqual(pkg.devDependencies);
  });

  it('reads the platform from binary package names', () => {
    expect(platformOf('@swc/core-darwin-arm64')).toEqual({ os: ['darwin'], cpu: ['arm64'] });
    expect(platformOf('@unrs/resolver-binding-linux-arm-musleabihf')).toEqual({
      os: ['linux'],
      cpu: ['arm'],
      libc: ['musl'],
    });
    expect(platformOf('@swc/core-win32-ia32-msvc')).toEqual({ os: ['win32'], cpu: ['ia32'] });
    expect(platformOf('@unrs/resolver-binding-wasm32-wasi')).toEqual({ cpu: ['wasm32'] });
    expect(platformOf('@swc/counter')).toBeUndefined();
  });

  it('detects a removed platform entry', () => {
    const broken = { packages: { ...lock.packages } };
    delete broken.packages['node_modules/@swc/core-darwin-arm64'];
    expect(missingPlatformEntries(broken)).toEqual({
      'node_modules/@swc/core-darwin-arm64': {
        version: lock.packages['node_modules/@swc/core'].version,
        cpu: ['arm64'],
        optional: true,
        os: ['darwin'],
      },
    });
  });
});
