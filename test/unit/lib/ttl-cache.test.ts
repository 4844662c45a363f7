/** The small cache searches and value notices use (src/lib/ttl-cache.ts): shared loads, age limit, failures dropped, bounded. */
import { describe, expect, it } from 'vitest';
import { createTtlCache } from '../../../src/lib/ttl-cache.js';

describe('createTtlCache', () => {
  it('concurrent reads of one key share one load; the loader is the caller’s', async () => {
    const cache = createTtlCache<string>({ ttlMs: 1_000 });
    let loads = 0;
    const load = (v: string) => async () => {
      loads++;
      return v;
    };
    const [a, b] = await Promise.all([cache.get('k', load('first')), cache.get('k', load('second'))]);
    expect([a, b, loads]).toEqual(['first', 'first', 1]);
  });

  it('loads again after the age limit, or a shorter one the caller gives', async () => {
    let now = 0;
    const cache = createTtlCache<number>({ ttlMs: 100, now: () => now });
    let n = 0;
    const load = async () => ++n;
    expect(await cache.get('k', load)).toBe(1);
    now = 50;
    expect(await cache.get('k', load)).toBe(1);
    expect(await cache.get('k', load, 10)).toBe(2);
    now = 200;
    expect(await cache.get('k', load)).toBe(3);
  });

  it('drops a failed load, so the next read tries again', async () => {
    const cache = createTtlCache<number>({ ttlMs: 1_000 });
    await expect(cache.get('k', () => Promise.reject(new Error('down')))).rejects.toThrow('down');
    expect(await cache.get('k', async () => 7)).toBe(7);
  });

  it('keeps at most maxKeys, the oldest going first', async () => {
    const cache = createTtlCache<string>({ ttlMs: 1_000, maxKeys: 2 });
    for (const k of ['a', 'b', 'c']) await cache.get(k, async () => k);
    expect(await cache.get('a', async () => 'reloaded')).toBe('reloaded');
    expect(await cache.get('c', async () => 'reloaded')).toBe('c');
  });
});
