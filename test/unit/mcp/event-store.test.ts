/** The MCP event store's bound: by bytes per session, oldest first, a lost id replays nothing. */
import { describe, expect, it } from 'vitest';
import { createEventStore } from '../../../src/mcp/event-store.js';

const msg = (n: number) => ({ jsonrpc: '2.0' as const, method: 'notifications/progress', params: { n, pad: 'x'.repeat(100) } });

describe('MCP event store', () => {
  it('replays the events of the same stream after an id, and forgets the oldest past its byte bound', async () => {
    const store = createEventStore(1_000);
    const ids = [];
    for (let i = 0; i < 20; i++) ids.push(await store.storeEvent(i % 2 ? 'b' : 'a', msg(i)));
    const replayed: number[] = [];
    const stream = await store.replayEventsAfter(ids[16]!, { send: async (_id, m) => void replayed.push((m as any).params.n) });
    expect(stream).toBe('a');
    expect(replayed).toEqual([18]);
    expect(await store.replayEventsAfter(ids[0]!, { send: async () => {} })).toBe(''); // dropped long ago
    expect(await store.getStreamIdForEventId!(ids[19]!)).toBe('b');
  });
});
