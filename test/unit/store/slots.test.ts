/**
 * Redis Cluster readiness of the key layout (src/store/keys.ts): the keys each script or
 * multi-key command touches hash to one slot, and KVSTORE_URL names a server or a cluster.
 */
import { describe, expect, it } from 'vitest';
import { createKeys, hasSlotTag, slotTag, uuidWithTag } from '../../../src/store/keys.js';
import { createKvStore, parseKvUrl } from '../../../src/store/redis.js';

/** The cluster's key slot, written out from the Redis Cluster specification (CRC16-XMODEM mod 16384, hash tags). */
function calculateSlot(key: string): number {
  const open = key.indexOf('{');
  const close = open < 0 ? -1 : key.indexOf('}', open + 1);
  const hashed = close > open + 1 ? key.slice(open + 1, close) : key;
  let crc = 0;
  for (const byte of new TextEncoder().encode(hashed)) {
    crc ^= byte << 8;
    for (let i = 0; i < 8; i++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  }
  return crc % 16384;
}

const keys = createKeys('gc:');
const oneSlot = (list: string[]) => new Set(list.map((k) => calculateSlot(k))).size;

describe('key slots', () => {
  it('computes slots as Redis does', () => {
    // Values from CLUSTER KEYSLOT on Redis 7.
    expect(calculateSlot('foo')).toBe(12182);
    expect(calculateSlot('{user1000}.following')).toBe(calculateSlot('user1000'));
    expect(calculateSlot('foo{}{bar}')).toBe(8363); // an empty tag hashes the whole key
    expect(calculateSlot('gc:{q}:queue')).toBe(11958);
  });

  it('puts a session, a job of it and a fresh session made for that job in one slot', () => {
    for (let i = 0; i < 50; i++) {
      const session = crypto.randomUUID();
      const job = uuidWithTag(slotTag(session));
      const fresh = uuidWithTag(slotTag(session));
      expect(job).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
      expect(job).not.toBe(fresh);
      // SUBMIT, TAKE, PUBLISH, FINISH and the requeue's first step.
      expect(oneSlot([...keys.sessionAll(session), keys.session(fresh), keys.job(job), keys.jobEvents(job), keys.jobLive(job)])).toBe(1);
    }
  });

  it('spreads sessions over the slots', () => {
    const slots = new Set(Array.from({ length: 200 }, () => calculateSlot(keys.session(crypto.randomUUID()))));
    expect(slots.size).toBeGreaterThan(150);
  });

  it('keeps the queue, processing lists, leases and worker set in one slot', () => {
    expect(oneSlot([keys.queue(), keys.processing('w1'), keys.processing('w2'), keys.alive('w1'), keys.workers()])).toBe(1);
  });

  it('keeps a user, its session list and its rate limits in one slot', () => {
    const u = crypto.randomUUID();
    expect(oneSlot([keys.user(u), keys.userSessions(u), keys.rateRequests(u), keys.rateTokens(u)])).toBe(1);
  });

  it('knows which IDs carry a tag', () => {
    expect(hasSlotTag(crypto.randomUUID())).toBe(true);
    expect(hasSlotTag('not-a-uuid')).toBe(false);
    expect(hasSlotTag('A1B2C3D4-0000')).toBe(false);
  });
});

describe('parseKvUrl', () => {
  it('reads a single server as before', () => {
    expect(parseKvUrl('valkey://localhost:6380/2')).toEqual({
      cluster: false,
      options: { host: 'localhost', port: 6380, db: 2, username: undefined, password: undefined, tls: undefined },
    });
    const t = parseKvUrl('rediss://u:p%40ss@h');
    expect(t.cluster).toBe(false);
    expect(t.options).toMatchObject({ host: 'h', port: 6379, username: 'u', password: 'p@ss', tls: {} });
  });

  it('reads the seed nodes of a cluster', () => {
    expect(parseKvUrl('redis+cluster://10.0.0.1:7000,10.0.0.2:7001,[::1]:7002')).toMatchObject({
      cluster: true,
      nodes: [
        { host: '10.0.0.1', port: 7000 },
        { host: '10.0.0.2', port: 7001 },
        { host: '::1', port: 7002 },
      ],
      options: { tls: undefined },
    });
    expect(parseKvUrl('valkey+cluster://a,b:7001')).toMatchObject({
      nodes: [
        { host: 'a', port: 6379 },
        { host: 'b', port: 7001 },
      ],
    });
    expect(parseKvUrl('rediss+cluster://:secret@a:7000').options).toMatchObject({ password: 'secret', tls: {} });
    expect(parseKvUrl('valkeys+cluster://a:7000').options.tls).toEqual({});
  });

  it('refuses what a cluster or a single server cannot be', () => {
    expect(() => parseKvUrl('redis+cluster://a:7000/1')).toThrow(/database 0/);
    expect(() => parseKvUrl('redis://a:1,b:2')).toThrow(/\+cluster/);
    expect(() => parseKvUrl('http://a')).toThrow(/not a key-value store URL/);
  });
});

describe('a cluster none of whose nodes answers', () => {
  it('fails commands at once instead of queueing them (503 upstream), as a single server does', async () => {
    const kv = createKvStore({ url: 'redis+cluster://127.0.0.1:1,127.0.0.1:2' });
    try {
      const t0 = Date.now();
      await expect(kv.redis.get('x')).rejects.toThrow(/Cluster isn't ready/);
      expect(Date.now() - t0).toBeLessThan(3_000);
      expect(await kv.ping(300)).toBe(false);
    } finally {
      await kv.close();
    }
  });
});
