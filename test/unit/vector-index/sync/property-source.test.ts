/**
 * The writer-kept property source without a database (src/vector-index/sync/property-source.ts,
 * src/graph/access/changed-property.ts): the cursor's text form, values of each kind, when the
 * chunk-side check for deletes runs, and when a pass may call the indexes in step.
 */
import neo4j, { type Driver } from 'neo4j-driver';
import { describe, expect, it } from 'vitest';
import { propertyValue } from '../../../../src/graph/access/changed-property.js';
import type { SyncState } from '../../../../src/store/sync-state.js';
import { nextPassIn } from '../../../../src/vector-index/sync/loop.js';
import {
  goneCheckAt,
  parsePropertyCursor,
  planFromProperty,
  propertyCursorText,
} from '../../../../src/vector-index/sync/property-source.js';
import { parseCursor } from '../../../../src/vector-index/sync/source.js';

/** The property source as chooseSource hands it over: the indexed labels, and the newest value then. */
const DOC = { labels: ['Doc'], newest: null };

const config = { INDEX_CHANGED_PROPERTY: 'updatedAt', INDEX_SYNC_INTERVAL_MS: 15_000 } as never;

/** A driver that answers the counts query with `counts` and the property query with `rows` (id, value, fresh). */
function fakeDriver(counts: Record<string, number>, rows: Array<{ id: string; v: unknown; fresh: boolean }>) {
  const driver = {
    async executeQuery(q: string) {
      if (q.includes('count(n)')) {
        return { records: Object.entries(counts).map(([label, c]) => ({ get: (k: string) => (k === 'label' ? label : c) })) };
      }
      return { records: rows.map((r) => ({ get: (k: string) => (r as Record<string, unknown>)[k] })) };
    },
  } as unknown as Driver;
  return { graph: { driver } as never, config };
}

const state = (over: Partial<SyncState>): SyncState => ({
  checkedAt: null,
  syncedAt: null,
  behindSince: null,
  bookmark: null,
  last: [],
  error: null,
  busy: [],
  source: 'property',
  sourceWhy: null,
  cursor: 'p:number:1000',
  fullAt: 1,
  fullMs: 10,
  counts: JSON.stringify({ Doc: 5 }),
  goneAt: 100_000,
  goneMs: 2_000,
  ...over,
});

describe('the property cursor', () => {
  it('round-trips each kind, says "no value yet", and is not the change log’s', () => {
    for (const v of [
      { kind: 'number', text: '1732761654123' },
      { kind: 'datetime', text: '2026-11-28T03:40:54.123000000Z' },
      { kind: 'date', text: '2026-11-28' },
    ] as const) {
      expect(parsePropertyCursor(propertyCursorText(v))).toEqual({ value: v });
    }
    expect(parsePropertyCursor('p:')).toEqual({ value: null });
    expect(parsePropertyCursor('12:epoch')).toBeUndefined();
    expect(parseCursor(propertyCursorText({ kind: 'number', text: '5' }))).toBeNull();
  });

  it('reads numbers and temporals, and no other value', () => {
    expect(propertyValue(neo4j.int(42))).toMatchObject({ kind: 'number', text: '42', key: 42 });
    expect(propertyValue(1.5)).toMatchObject({ kind: 'number', key: 1.5 });
    const dt = propertyValue(new neo4j.types.DateTime(2026, 11, 28, 3, 40, 54, 0, 0));
    expect(dt).toMatchObject({ kind: 'datetime', key: Date.UTC(2026, 10, 28, 3, 40, 54) });
    expect(propertyValue(new neo4j.types.Date(2026, 11, 28))?.kind).toBe('date');
    expect(propertyValue('2026-11-28')).toBeNull();
    expect(propertyValue([1])).toBeNull();
  });
});

describe('a pass under the property', () => {
  it('checks the nodes written since, and the chunk side at once when a label count dropped', async () => {
    const deps = fakeDriver({ Doc: 4 }, [{ id: 'a', v: neo4j.int(1500), fresh: true }]);
    const plan = await planFromProperty(deps, 'neo4j', DOC, state({}), false, 101_000);
    expect(plan).toMatchObject({ full: false, ids: ['a'], goneCheck: true, settles: true, to: 'p:number:1500', counts: { Doc: 4 } });
  });

  it('with nodes written since and the chunk-side check not due: not settled, the cursor kept', async () => {
    const deps = fakeDriver({ Doc: 5 }, [{ id: 'a', v: neo4j.int(1500), fresh: true }]);
    const plan = await planFromProperty(deps, 'neo4j', DOC, state({}), false, 101_000);
    expect(plan).toMatchObject({ full: false, goneCheck: false, settles: false, to: 'p:number:1000' });
    const due = await planFromProperty(deps, 'neo4j', DOC, state({}), false, 100_000 + 18_000);
    expect(due).toMatchObject({ goneCheck: true, settles: true, to: 'p:number:1500' });
  });

  it('only the overlap seen again (nothing fresh) settles without the chunk-side check', async () => {
    const deps = fakeDriver({ Doc: 5 }, [{ id: 'a', v: neo4j.int(990), fresh: false }]);
    const plan = await planFromProperty(deps, 'neo4j', DOC, state({}), false, 101_000);
    expect(plan).toMatchObject({ full: false, ids: ['a'], goneCheck: false, settles: true });
  });

  it('runs a full check first, on a reconcile, and past the node cap', async () => {
    const deps = fakeDriver({ Doc: 5 }, []);
    expect(await planFromProperty(deps, 'neo4j', DOC, state({ cursor: null }), false, 0)).toMatchObject({ full: true });
    expect(await planFromProperty(deps, 'neo4j', DOC, state({}), true, 0)).toMatchObject({ full: true, why: 'reconcile due' });
    const many = Array.from({ length: 100_001 }, (_, i) => ({ id: `n${i}`, v: neo4j.int(2000), fresh: true }));
    expect(await planFromProperty(fakeDriver({ Doc: 5 }, many), 'neo4j', DOC, state({}), false, 0)).toMatchObject({ full: true });
  });

  it('spaces the chunk-side check by nine times its duration, and follows the property every INDEX_SYNC_FOLLOW_MS', () => {
    expect(goneCheckAt(config, { goneAt: null, goneMs: null })).toBe(0);
    expect(goneCheckAt(config, { goneAt: 1_000, goneMs: 100 })).toBe(16_000);
    expect(goneCheckAt(config, { goneAt: 1_000, goneMs: 10_000 })).toBe(91_000);
    const loop = { INDEX_SYNC_INTERVAL_MS: 15_000, INDEX_SYNC_FOLLOW_MS: 1_000 };
    expect(nextPassIn(loop, { source: 'property', fullMs: null }, true)).toBe(1_000);
  });
});
