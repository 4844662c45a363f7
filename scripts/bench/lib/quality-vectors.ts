/**
 * bench:quality's embedding cache: every text the bench embedded (chunks and queries), kept in
 * one file per model and read back by later runs. The index build's CSV cache is keyed by whole
 * batches, so an index whose plan differs (discovery on, other labels, another text rule) shares
 * no batch with the last one although most of its chunks are the same texts; with the real
 * model at ~25 short texts/s on two cores, that is minutes per variant. Here a text is embedded
 * once, whatever index it lands in. The vectors are the server's, unchanged.
 */
import { appendFileSync, existsSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EmbedderPool } from '../../../src/embeddings/embedders.js';
import type { Embedder } from '../../../src/embeddings/types.js';

/** What went through the cache: texts asked, texts embedded by the server, and the time that took. */
export interface VectorCacheStats {
  asked: number;
  embedded: number;
  ms: number;
}

/** An embedder pool whose `embed` answers known texts from the cache file, and appends new ones to it. */
export interface CachedPool extends EmbedderPool {
  stats: VectorCacheStats;
}

/** Texts embedded per call to the server (and appended to the file at once). */
const SLICE = 64;

/** The cache file of a model under `dir`. */
export const cacheFile = (dir: string, model: string) => `${dir}/${model.replace(/[^\w.-]+/g, '_')}.jsonl`;

function load(file: string): Map<string, Float32Array> {
  const out = new Map<string, Float32Array>();
  if (!existsSync(file)) return out;
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    if (!line) continue;
    try {
      const { t, v } = JSON.parse(line) as { t: string; v: string };
      const bytes = Buffer.from(v, 'base64');
      out.set(t, new Float32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4).slice());
    } catch {
      // A line cut short by an interrupted run: that text is embedded again.
    }
  }
  return out;
}

/** Wraps `pool` so that every text is embedded once across runs (file per model under `dir`). */
export function cachedEmbedders(pool: EmbedderPool, dir: string): CachedPool {
  const stats: VectorCacheStats = { asked: 0, embedded: 0, ms: 0 };
  const caches = new Map<string, Map<string, Float32Array>>();
  /** File size as last read plus what this process appended, by model. */
  const written = new Map<string, number>();
  return {
    stats,
    close: () => pool.close(),
    async get(model: string): Promise<Embedder> {
      const inner = await pool.get(model);
      const file = cacheFile(dir, model);
      // Read again when the file grew by more than this process wrote (another run shares it).
      const size = existsSync(file) ? statSync(file).size : 0;
      let cache = caches.get(model);
      if (!cache || size !== written.get(model)) {
        cache = load(file);
        caches.set(model, cache);
        written.set(model, size);
      }
      const known = cache;
      return Object.assign(Object.create(inner) as Embedder, {
        async embed(texts: string[]): Promise<Float32Array[]> {
          stats.asked += texts.length;
          const missing = [...new Set(texts.filter((t) => !known.has(t)))];
          // In slices, two at a time (the server is threaded; on a shared machine two requests
          // get twice the CPU share), each appended as it comes: an interrupted build keeps them.
          const slices: string[][] = [];
          for (let i = 0; i < missing.length; i += SLICE) slices.push(missing.slice(i, i + SLICE));
          const work = async () => {
            for (let slice = slices.shift(); slice; slice = slices.shift()) {
              const t0 = performance.now();
              const vectors = await inner.embed(slice);
              stats.ms += performance.now() - t0;
              stats.embedded += slice.length;
              mkdirSync(dirname(file), { recursive: true });
              const lines = slice.map((t, j) => {
                const v = vectors[j]!;
                known.set(t, v);
                return `${JSON.stringify({ t, v: Buffer.from(v.buffer, v.byteOffset, v.byteLength).toString('base64') })}\n`;
              });
              const chunk = lines.join('');
              appendFileSync(file, chunk);
              written.set(model, (written.get(model) ?? 0) + Buffer.byteLength(chunk));
            }
          };
          await Promise.all([work(), work()]);
          return texts.map((t) => known.get(t)!);
        },
      });
    },
  } as CachedPool;
}
