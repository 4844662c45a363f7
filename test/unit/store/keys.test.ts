/** The key layout: every key under the prefix, lifetimes of the contract; anonymous IDs. */
import { describe, expect, it } from 'vitest';
import { createKeys, LIFETIMES, RATE_LIMITS, type Keys } from '../../../src/store/keys.js';
import { newAnonId } from '../../../src/store/users.js';
import { sessionName } from '../../../src/store/sessions.js';

describe('keys', () => {
  it('puts every key under the prefix', () => {
    const keys = createKeys('pfx:');
    for (const [name, fn] of Object.entries(keys) as Array<[keyof Keys, (id: string) => string | string[]]>) {
      for (const key of [fn('x')].flat()) expect(key, name).toMatch(/^pfx:/);
    }
    const s = 'a1b2c3d4-0000-4000-8000-000000000000';
    expect(keys.sessionAll(s)).toEqual([
      `pfx:session:{a1b2c3d4}:${s}`,
      `pfx:session:{a1b2c3d4}:${s}:messages`,
      `pfx:session:{a1b2c3d4}:${s}:pending`,
    ]);
    expect(keys.jobEvents(s)).toBe(`pfx:job:{a1b2c3d4}:${s}:events`);
  });

  it('keeps the lifetimes and limits of the contract', () => {
    expect(LIFETIMES).toEqual({
      anonSeconds: 259_200,
      anonRotateSeconds: 7_200,
      sessionSeconds: 604_800,
      jobSeconds: 600,
      rateWindowSeconds: 600,
    });
    expect(RATE_LIMITS).toEqual({ requests: 20, tokens: 500_000 });
  });
});

describe('newAnonId', () => {
  it('is 32 random bytes as URL-safe base64 without padding', () => {
    const ids = new Set(Array.from({ length: 200 }, newAnonId));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });
});

describe('sessionName', () => {
  const msg = (content: string) => ({ role: 'user' as const, content, route: null, confidence: null, events: [] });
  it('prefers the set name, then the first user message, then "New chat"', () => {
    expect(sessionName({ name: 'Mine', messages: [msg('q')] })).toBe('Mine');
    expect(sessionName({ name: null, messages: [msg(' a\n b ')] })).toBe('a b');
    expect(sessionName({ name: null, messages: [] })).toBe('New chat');
    expect(sessionName({ name: null, messages: [msg('x'.repeat(80))] })).toBe(`${'x'.repeat(59)}…`);
  });
});
