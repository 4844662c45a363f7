/** The MCP session store's bounds: idle expiry, least-recently-used eviction, the sweep timer. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { McpSession } from '../../../src/mcp/sessions.js';
import { createMcpSessionStore } from '../../../src/mcp/sessions.js';

/** A stand-in session that records whether it was closed. */
function fakeSession() {
  const state = { closed: false };
  const session = { server: { close: async () => void (state.closed = true) }, transport: {} } as unknown as McpSession;
  return { session, state };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('MCP session store', () => {
  it('closes a session unused for idleMs and keeps one that is used', () => {
    let t = 0;
    const expired: string[] = [];
    const store = createMcpSessionStore({
      idleMs: 1_000,
      maxSessions: 10,
      maxPerClient: 10,
      now: () => t,
      onExpire: (id) => expired.push(id),
    });
    const a = fakeSession();
    const b = fakeSession();
    store.add('a', a.session, 'h');
    store.add('b', b.session, 'h');
    t = 900;
    expect(store.get('b')?.server).toBe(b.session.server); // marks b used at 900
    t = 1_500; // a idle 1,500 ms, b idle 600 ms
    expect(store.get('a')).toBeUndefined();
    expect(a.state.closed).toBe(true);
    expect(store.get('b')?.server).toBe(b.session.server);
    expect(b.state.closed).toBe(false);
    expect(expired).toEqual(['a']);
    expect(store.size).toBe(1);
  });

  it('evicts the least recently used session when full', () => {
    let t = 0;
    const reasons: string[] = [];
    const store = createMcpSessionStore({
      idleMs: 60_000,
      maxSessions: 2,
      maxPerClient: 10,
      now: () => t,
      onExpire: (id, why) => reasons.push(`${id}:${why}`),
    });
    const [a, b, c] = [fakeSession(), fakeSession(), fakeSession()];
    store.add('a', a.session, 'h');
    t = 1;
    store.add('b', b.session, 'h');
    t = 2;
    store.get('a'); // a is now more recent than b
    t = 3;
    store.add('c', c.session, 'h');
    expect(reasons).toEqual(['b:evicted']);
    expect(b.state.closed).toBe(true);
    expect(store.get('a')).toBeDefined();
    expect(store.get('c')).toBeDefined();
    expect(store.size).toBe(2);
  });

  it("closes a client's own least recently used session at its cap, never another client's", () => {
    const closed: string[] = [];
    const store = createMcpSessionStore({ idleMs: 60_000, maxSessions: 100, maxPerClient: 3, onExpire: (id) => closed.push(id) });
    store.add('victim', fakeSession().session, '10.0.0.1');
    for (let i = 0; i < 3_000; i++) store.add(`flood-${i}`, fakeSession().session, '10.0.0.66');
    expect(store.get('victim')).toBeDefined();
    expect(store.size).toBe(4);
    expect(closed).toHaveLength(2_997);
    expect(closed.every((id) => id.startsWith('flood-'))).toBe(true);
    expect(store.get('flood-2999')).toBeDefined();
  });

  it('sweeps idle sessions on a timer that exists only while sessions do', async () => {
    vi.useFakeTimers();
    const store = createMcpSessionStore({ idleMs: 5_000, maxSessions: 10, maxPerClient: 10 });
    expect(vi.getTimerCount()).toBe(0);
    const a = fakeSession();
    store.add('a', a.session, 'h');
    expect(vi.getTimerCount()).toBe(1);
    await vi.advanceTimersByTimeAsync(10_000);
    expect(a.state.closed).toBe(true);
    expect(store.size).toBe(0);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('forgets removed sessions and closes all on closeAll', async () => {
    const store = createMcpSessionStore({ idleMs: 5_000, maxSessions: 10, maxPerClient: 10 });
    const [a, b] = [fakeSession(), fakeSession()];
    store.add('a', a.session, 'h');
    store.add('b', b.session, 'h');
    store.remove('a');
    expect(store.get('a')).toBeUndefined();
    expect(a.state.closed).toBe(false); // it closed itself; the store only forgets it
    await store.closeAll();
    expect(b.state.closed).toBe(true);
    expect(store.size).toBe(0);
  });
});
