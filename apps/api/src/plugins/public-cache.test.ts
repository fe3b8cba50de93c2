import { coalescedReader, createPublicCache } from './public-cache';

/** A value source whose reads the test completes by hand, in order. */
function manualSource() {
  let value = 1;
  const pending: Array<{ readAt: number; resolve: (v: number) => void }> = [];
  let reads = 0;
  return {
    set: (v: number) => (value = v),
    get reads() {
      return reads;
    },
    // The value is taken when the read *starts* (as a query's snapshot is).
    read: () =>
      new Promise<number>((resolve) => {
        reads++;
        pending.push({ readAt: value, resolve });
      }),
    /** Completes the oldest read in flight. */
    finishOne: async () => {
      const p = pending.shift();
      if (!p) throw new Error('no read in flight');
      p.resolve(p.readAt);
      for (let i = 0; i < 5; i++) await Promise.resolve();
    },
  };
}

describe('coalescedReader', () => {
  it('a caller arriving while a read is in flight gets a read that started after it asked', async () => {
    const src = manualSource();
    const version = coalescedReader(src.read);
    const a = version(); // starts read #1 (sees 1)
    src.set(2); // a write commits while read #1 is in flight
    const b = version(); // must not be answered by read #1
    const c = version(); // shares b's read
    expect(src.reads).toBe(1);
    await src.finishOne();
    await expect(a).resolves.toBe(1);
    expect(src.reads).toBe(2); // b and c's read started after read #1 ended
    await src.finishOne();
    await expect(b).resolves.toBe(2);
    await expect(c).resolves.toBe(2);
    const d = version(); // nothing in flight: a read of its own
    expect(src.reads).toBe(3);
    await src.finishOne();
    await expect(d).resolves.toBe(2);
  });

  it('with a staleness bound, a read that started within it is used without waiting; an older one is not', async () => {
    const src = manualSource();
    let t = 1_000;
    const version = coalescedReader(src.read, { maxStaleMs: 50, now: () => t });
    const a = version();
    await src.finishOne();
    await expect(a).resolves.toBe(1);
    src.set(2); // a write commits elsewhere
    t += 50; // the read started 50 ms ago: still within the bound
    await expect(version()).resolves.toBe(1);
    expect(src.reads).toBe(1);
    t += 1; // 51 ms: a new read, started after the call
    const b = version();
    expect(src.reads).toBe(2);
    await src.finishOne();
    await expect(b).resolves.toBe(2);
  });

  it('a failed read fails its callers and does not block the next one', async () => {
    let n = 0;
    const version = coalescedReader(async () => {
      n++;
      if (n === 1) throw new Error('database gone');
      return n;
    });
    await expect(version()).rejects.toThrow('database gone');
    await expect(version()).resolves.toBe(2);
  });
});

describe('createPublicCache', () => {
  const body = (s: string) => Buffer.from(s);

  it('serves an entry while the data version stands and rebuilds it when the version moves', async () => {
    let version = '1';
    let builds = 0;
    const cache = createPublicCache({ ttlMs: 60_000, version: async () => version });
    const load = async () => body(`answer ${++builds} at v${version}`);
    expect(await cache.get('k', load)).toEqual({ value: body('answer 1 at v1'), hit: false });
    expect(await cache.get('k', load)).toEqual({ value: body('answer 1 at v1'), hit: true });
    version = '2';
    expect(await cache.get('k', load)).toEqual({ value: body('answer 2 at v2'), hit: false });
    expect(await cache.get('k', load)).toEqual({ value: body('answer 2 at v2'), hit: true });
  });

  it(
    'keeps a complete answer past the TTL while the version stands; an answer with live ' + 'counters only for the TTL',
    async () => {
      let t = 0;
      const cache = createPublicCache({ ttlMs: 5_000, version: async () => '1', now: () => t });
      await cache.get('search', async () => body('s'), { complete: true });
      await cache.get('live-now', async () => body('l'));
      t = 60_000;
      expect((await cache.get('search', async () => body('s2'), { complete: true })).hit).toBe(true);
      expect((await cache.get('live-now', async () => body('l2'))).hit).toBe(false);
    },
  );

  it('evicts least recently used entries beyond its byte bound', async () => {
    const cache = createPublicCache({ ttlMs: 60_000, maxBytes: 30, version: async () => '1' });
    await cache.get('a', async () => body('x'.repeat(10)));
    await cache.get('b', async () => body('y'.repeat(10)));
    await cache.get('a', async () => body('unused')); // a is now the most recent
    await cache.get('c', async () => body('z'.repeat(15)));
    expect(cache.bytes).toBeLessThanOrEqual(30);
    expect((await cache.get('a', async () => body('a2'))).hit).toBe(true);
    expect((await cache.get('b', async () => body('b2'))).hit).toBe(false);
  });

  it('does not keep an answer whose load straddled a clear()', async () => {
    const cache = createPublicCache({ ttlMs: 60_000, version: async () => '1' });
    let release!: () => void;
    const loading = cache.get('k', () => new Promise<Buffer>((r) => (release = () => r(body('old')))));
    await new Promise((r) => setImmediate(r));
    cache.clear();
    release();
    await loading;
    expect((await cache.get('k', async () => body('new'))).value).toEqual(body('new'));
  });
});
