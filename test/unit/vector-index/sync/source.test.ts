/**
 * The sync's change sources without a database (src/vector-index/sync/source.ts): the cursor's
 * text form, when the log is followed and when a full check runs instead, paging through the
 * log, and how passes are spaced.
 */
import type { Driver } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import type { ChangeLogInfo } from '../../../../src/graph/access/change-log.js';
import { nextPassIn } from '../../../../src/vector-index/sync/loop.js';
import { cursorText, parseCursor, planFromLog } from '../../../../src/vector-index/sync/source.js';

const info: ChangeLogInfo = { version: '1', epoch: 'e1', position: 25_000, oldest: 1, capacity: 1_000_000 };

/** A driver whose `graphchat.changes` answers from `pages`, recording what was asked. */
function logDriver(pages: Array<{ epoch?: string; position: number; lost?: boolean; ids: string[] }>) {
  const asked: number[] = [];
  const driver = {
    async executeQuery(_q: string, params: { after: { toNumber(): number } }) {
      asked.push(params.after.toNumber());
      const p = pages.shift()!;
      const row: Record<string, unknown> = { epoch: p.epoch ?? 'e1', position: p.position, lost: p.lost ?? false, ids: p.ids };
      return { records: [{ get: (k: string) => row[k] }] };
    },
  } as unknown as Driver;
  return { deps: { graph: { driver } as never }, asked };
}

describe('the cursor', () => {
  it('round-trips, and anything else is no cursor', () => {
    expect(parseCursor(cursorText({ epoch: 'ab:cd', position: 42 }))).toEqual({ epoch: 'ab:cd', position: 42 });
    expect(parseCursor(null)).toBeNull();
    expect(parseCursor('x:1')).toBeNull();
  });
});

describe('planFromLog', () => {
  it('a full check when there is no cursor, another epoch, a cursor past the log, or a reconcile due', async () => {
    const { deps, asked } = logDriver([]);
    const head = { epoch: 'e1', position: 25_000 };
    expect(await planFromLog(deps, 'neo4j', info, null, false)).toMatchObject({ full: true, head });
    expect(await planFromLog(deps, 'neo4j', info, { epoch: 'e0', position: 3 }, false)).toMatchObject({ full: true, head });
    expect(await planFromLog(deps, 'neo4j', info, { epoch: 'e1', position: 30_000 }, false)).toMatchObject({ full: true });
    expect(await planFromLog(deps, 'neo4j', info, { epoch: 'e1', position: 3 }, true)).toMatchObject({ full: true, why: 'reconcile due' });
    expect(asked).toEqual([]);
  });

  it('pages through the log to its head, each node once', async () => {
    const { deps, asked } = logDriver([
      { position: 15_000, ids: ['a', 'b'] },
      { position: 25_000, ids: ['b', 'c'] },
    ]);
    const plan = await planFromLog(deps, 'neo4j', info, { epoch: 'e1', position: 5_000 }, false);
    expect(plan).toEqual({ full: false, ids: ['a', 'b', 'c'], to: { epoch: 'e1', position: 25_000 }, caughtUp: true });
    expect(asked).toEqual([5_000, 15_000]);
  });

  it('an overflowed log or a restart during the pass makes a full check', async () => {
    const lost = logDriver([{ position: 25_000, lost: true, ids: [] }]);
    expect(await planFromLog(lost.deps, 'neo4j', info, { epoch: 'e1', position: 1 }, false)).toMatchObject({ full: true });
    const restarted = logDriver([{ epoch: 'e2', position: 3, ids: [] }]);
    expect(await planFromLog(restarted.deps, 'neo4j', info, { epoch: 'e1', position: 1 }, false)).toMatchObject({ full: true });
  });

  it('an unchanged log asks nothing', async () => {
    const { deps, asked } = logDriver([]);
    const plan = await planFromLog(deps, 'neo4j', info, { epoch: 'e1', position: 25_000 }, false);
    expect(plan).toMatchObject({ full: false, ids: [], caughtUp: true });
    expect(asked).toEqual([]);
  });
});

describe('nextPassIn', () => {
  const config = { INDEX_SYNC_INTERVAL_MS: 15_000, INDEX_SYNC_FOLLOW_MS: 1_000 };
  it('follows a change log every INDEX_SYNC_FOLLOW_MS, also after an unchanged pass', () => {
    expect(nextPassIn(config, { source: 'plugin', fullMs: null }, true)).toBe(1_000);
    expect(nextPassIn(config, { source: null, fullMs: null }, true)).toBe(1_000);
  });
  it('spaces full checks by nine times their duration, at least the interval', () => {
    expect(nextPassIn(config, { source: 'scan', fullMs: 1_000 }, false)).toBe(15_000);
    expect(nextPassIn(config, { source: 'scan', fullMs: 25_000 }, false)).toBe(225_000);
    expect(nextPassIn(config, null, false)).toBe(15_000);
  });
});
