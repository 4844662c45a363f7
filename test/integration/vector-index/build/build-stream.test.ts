/**
 * `POST /dev/build_vector_index` with `Accept: text/event-stream`: progress events in order
 * with figures that never go back, ending with the contract's result body; failures before the
 * build starts keep their status codes, later ones end the stream with an `error` event.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProgressView } from '../../../../src/vector-index/build/progress.js';
import { generateProse } from '../../../../scripts/bench/bench-prose.js';
import { createTestApp } from '../../helpers/deps.js';
import { parseSse } from '../../../helpers/sse.js';
import { createIndexFixture, createTextNodes, dropIndexFixture } from '../../helpers/index-fixtures.js';
import { dropSearchIndex } from '../../../../src/graph/access/index-writer.js';

const MODEL = 'minishlab/potion-base-32M';
const f = createIndexFixture(MODEL, { CHUNK_TOKENS: '48', CHUNK_OVERLAP_TOKENS: '8', INDEX_BATCH_SIZE: '16' });
const { app, deps } = createTestApp(f.env);

const build = (body: unknown, accept = 'text/event-stream') =>
  app.request('/dev/build_vector_index', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept },
    body: JSON.stringify(body),
  });

beforeAll(async () => {
  await createTextNodes(
    deps.graph.driver,
    f,
    Array.from({ length: 60 }, (_, i) => generateProse(2000 + i, 100, 900)),
  );
});
afterAll(async () => {
  await dropIndexFixture(deps.graph.driver, f);
  await dropSearchIndex(deps.graph.driver, 'neo4j', `${f.index}_server`);
  await deps.close();
});

describe('index build progress stream', () => {
  it('streams ordered, monotonic progress through every phase and ends with the result', async () => {
    const res = await build({ graph_name: 'neo4j', model: MODEL });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const frames = parseSse(await res.text()).filter((x) => x.event);
    const progress = frames.filter((x) => x.event === 'progress').map((x) => x.data as ProgressView);
    expect(frames.map((x) => x.id)).toEqual(frames.map((_, i) => i + 1));
    expect(frames.at(-1)?.event).toBe('result');
    expect(frames.filter((x) => x.event === 'result')).toHaveLength(1);

    const phases = progress.map((p) => p.phase).filter((p, i, all) => p !== all[i - 1]);
    expect(phases).toEqual(['embedding', 'cleanup', 'indexing', 'done']);
    expect(progress[0]).toMatchObject({ phase: 'embedding', percent: 0, chunks_done: 0, nodes_total: 60 });
    for (const key of ['percent', 'chunks_done', 'nodes_done', 'batches_done', 'elapsed_seconds'] as const) {
      const values = progress.map((p) => p[key]);
      expect(values, key).toEqual([...values].sort((a, b) => a - b));
    }
    const last = progress.at(-1)!;
    const result = frames.at(-1)!.data;
    expect(last).toMatchObject({ phase: 'done', percent: 100, index_percent: 100, nodes_done: 60 });
    expect(result).toEqual({
      index_name: f.index,
      total_chunks: last.chunks_done,
      batches_total: last.batches_done,
      batches_computed: last.batches_computed,
      batches_skipped: last.batches_skipped,
      // Extension: the text plan (here the suite's text property alone: INDEX_DISCOVER=false in tests).
      plan: { text_property: f.prop, only_labels: null, labels: [] },
    });
    expect(result.batches_computed).toBeGreaterThan(1);

    // The same build without the header: the contract's JSON body, all batches now cached.
    const again = await build({ graph_name: 'neo4j', model: MODEL }, 'application/json');
    expect(again.headers.get('content-type')).toMatch(/^application\/json/);
    expect(await again.json()).toEqual({ ...result, batches_computed: 0, batches_skipped: result.batches_total });
  });

  it('failures before the build starts keep their status codes', async () => {
    const bad = await build({ graph_name: 'neo4j', model: 'nope' });
    expect(bad.status).toBe(422);
    expect(bad.headers.get('content-type')).toMatch(/problem\+json/);
    expect((await build({ graph_name: 'no_such_graph', model: MODEL })).status).toBe(404);
  });

  it('409 for a second streamed build while the first holds the lock', async () => {
    const first = await build({ graph_name: 'neo4j', model: MODEL });
    const second = await build({ graph_name: 'neo4j', model: MODEL });
    expect(second.status).toBe(409);
    const frames = parseSse(await first.text()).filter((x) => x.event);
    expect(frames.at(-1)?.event).toBe('result');
  });

  it('a failure during the build ends the stream with an error event holding a problem', async () => {
    // The embedding model server is not there: the build starts, then its first batch fails.
    const down = createTestApp({
      ...f.env,
      EMBEDDING_MODEL: 'all-minilm',
      VECTOR_INDEX_NAME: `${f.index}_server`,
      LOCAL_LLM_BASE_URL: 'http://127.0.0.1:1/v1',
    });
    try {
      const res = await down.app.request('/dev/build_vector_index', {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'text/event-stream' },
        body: JSON.stringify({ graph_name: 'neo4j', model: 'all-minilm' }),
      });
      expect(res.status).toBe(200);
      const frames = parseSse(await res.text()).filter((x) => x.event);
      expect(frames[0]).toMatchObject({ event: 'progress', data: { phase: 'embedding', percent: 0 } });
      expect(frames.at(-1)).toMatchObject({ event: 'error', data: { status: 503, type: expect.stringMatching(/^\/problems\//) } });
      // As in the JSON answer of this operator route: the detail names the server to start.
      expect(frames.at(-1)!.data.detail).toMatch(/local model server at .* is unreachable/);
    } finally {
      await down.deps.close();
    }
  });
});
