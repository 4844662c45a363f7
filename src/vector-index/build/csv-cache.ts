/**
 * The per-batch embedding cache: one CSV file per embedding batch under
 * `<DATA_DIR>/vector-cache/<index name>/<batch key>.csv`, so a re-run of an interrupted build
 * skips the batches already embedded.
 *
 * The batch key is a SHA-256 over the model, its dimensions and every chunk of the batch (source
 * node id, chunk number and chunk text): a changed text, a changed chunking or another model
 * gives another key, so a stale vector is never served. Files are written to a temporary name
 * and renamed, so a killed process leaves either a whole file or none; a file that does not
 * parse or does not match its batch is treated as missing and recomputed.
 *
 * Format: a header `node_id,chunk,embedding`, then one row per chunk; `embedding` is the
 * float32 vector, little-endian, base64-encoded. Exact (the float32 bits round-trip, so a
 * resumed build writes the same vectors as an uninterrupted one), about a third of the size of
 * decimal text and far cheaper to write and parse than ~500 formatted floats per row.
 */
import type { ChunkRef } from '../../graph/access/index-writer.js';
import { decodeBase64, encodeBase64 } from '../../lib/base64.js';
import { trimChar } from '../../lib/text.js';

/** The file operations the cache needs (`node:fs/promises` has them all). */
export interface CacheFs {
  mkdir(path: string, opts: { recursive: true }): Promise<unknown>;
  readFile(path: string, encoding: 'utf8'): Promise<string>;
  writeFile(path: string, data: string): Promise<void>;
  rename(from: string, to: string): Promise<void>;
  readdir(path: string): Promise<string[]>;
  rm(path: string, opts: { force: true }): Promise<void>;
}

/** A chunk as batches hold it (its text is what the cache keys; its other fields are not part of the key). */
export type { ChunkRef } from '../../graph/access/index-writer.js';

/** A batch cache of one index. */
export interface BatchCache {
  /** The cached vectors of the batch with this key, or null when absent, unreadable or not matching `chunks`. */
  read(key: string, chunks: readonly ChunkRef[]): Promise<Float32Array[] | null>;
  /** Stores the vectors of a batch (atomic: temp file + rename). */
  write(key: string, chunks: readonly ChunkRef[], vectors: readonly Float32Array[]): Promise<void>;
  /** Deletes cache files whose key is not in `keep`; returns how many were deleted. */
  prune(keep: ReadonlySet<string>): Promise<number>;
}

/** Options of {@link createCsvCache}. */
export interface CsvCacheOptions {
  /** `DATA_DIR`. */
  dataDir: string;
  indexName: string;
  /** Vector length; a cached row of another length is a miss. */
  dimensions: number;
  /** File access; default `node:fs/promises` (Node, Bun and Deno all provide it). */
  fs?: CacheFs;
}

const HEADER = 'node_id,chunk,embedding';
// v2: chunk texts carry their node's header (../index/source.ts).
const KEY_VERSION = 'v2';

/** The cache folder of an index. */
export function cacheDir(dataDir: string, indexName: string): string {
  return `${trimChar(dataDir, '/')}/vector-cache/${indexName}`;
}

/** Content key of a batch: hex SHA-256 of the model, dimensions and every chunk. */
export async function batchKey(model: string, dimensions: number, chunks: readonly ChunkRef[]): Promise<string> {
  const parts = [`${KEY_VERSION}\n${model}\n${dimensions}\n`];
  for (const c of chunks) parts.push(`${c.nodeId}\t${c.chunk}\t${c.text.length}\t${c.text}\n`);
  return sha256Hex(parts.join(''));
}

async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, '0')).join('');
}

/**
 * Marks the stored key of a batch whose name-only chunks hold their text in `nameText` and their
 * vector in `nameEmbedding` ({@link storedBatchKey}; `names:nameText` before names had a vector index of their own).
 */
const NAME_LAYOUT = 'names:nameText+nameEmbedding';

/**
 * The key a batch's chunk nodes are stored under: `textKey` (the cache's), or for chunks that
 * carry filter values a SHA-256 over it and those values, so a changed value rewrites the
 * batch's nodes (vectors come from the cache) and an index without carried values keeps its keys.
 * A batch holding name-only chunks adds {@link NAME_LAYOUT}: such a batch written before names
 * had a field and a vector index of their own (its names in `chunkText`, or their vectors in the texts' index) gets a new key, so the next build or sync
 * rewrites it (vectors from the cache) and deletes the old nodes as stale; other batches keep theirs.
 */
export async function storedBatchKey(textKey: string, chunks: readonly ChunkRef[]): Promise<string> {
  const names = chunks.some((c) => c.nameOnly);
  if (!chunks.some((c) => c.carry) && !names) return textKey;
  const parts = [textKey];
  if (chunks.some((c) => c.carry)) for (const c of chunks) parts.push(JSON.stringify(c.carry ?? null));
  if (names) parts.push(NAME_LAYOUT);
  return sha256Hex(parts.join('\n'));
}

/** Quotes a CSV field when it needs it (RFC 4180). */
function csvField(s: string): string {
  return /[",\r\n]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
}

/** Splits one CSV line of three fields (quoted fields allowed, no embedded newlines). */
function parseLine(line: string): string[] {
  const out: string[] = [];
  let i = 0;
  while (i <= line.length) {
    if (line[i] === '"') {
      let s = '';
      i++;
      for (;;) {
        const q = line.indexOf('"', i);
        if (q < 0) return [];
        s += line.slice(i, q);
        if (line[q + 1] === '"') {
          s += '"';
          i = q + 2;
        } else {
          i = q + 2;
          break;
        }
      }
      out.push(s);
    } else {
      const comma = line.indexOf(',', i);
      const end = comma < 0 ? line.length : comma;
      out.push(line.slice(i, end));
      i = end + 1;
    }
  }
  return out;
}

/** Serialises a batch as the CSV text described above. */
export function toCsv(chunks: readonly ChunkRef[], vectors: readonly Float32Array[]): string {
  const lines = [HEADER];
  chunks.forEach((c, i) => {
    const v = vectors[i]!;
    const bytes = new Uint8Array(v.buffer, v.byteOffset, v.byteLength);
    lines.push(`${csvField(c.nodeId)},${c.chunk},${encodeBase64(bytes)}`);
  });
  return `${lines.join('\n')}\n`;
}

/** Parses {@link toCsv} output back, or null when it does not describe exactly `chunks`. */
export function fromCsv(text: string, chunks: readonly ChunkRef[], dimensions: number): Float32Array[] | null {
  const lines = text.split('\n');
  if (lines[0] !== HEADER || lines.length !== chunks.length + 2 || lines[lines.length - 1] !== '') return null;
  const vectors: Float32Array[] = [];
  for (let i = 0; i < chunks.length; i++) {
    const [nodeId, chunk, b64] = parseLine(lines[i + 1]!);
    if (nodeId !== chunks[i]!.nodeId || Number(chunk) !== chunks[i]!.chunk || b64 === undefined) return null;
    const bytes = decodeBase64(b64);
    if (!bytes || bytes.length !== dimensions * 4) return null;
    vectors.push(new Float32Array(bytes.buffer, 0, dimensions));
  }
  return vectors;
}

const nodeFs = async (): Promise<CacheFs> => {
  const fs = await import('node:fs/promises');
  return {
    mkdir: (p, o) => fs.mkdir(p, o),
    readFile: (p, e) => fs.readFile(p, e),
    writeFile: (p, d) => fs.writeFile(p, d),
    rename: (a, b) => fs.rename(a, b),
    readdir: (p) => fs.readdir(p),
    rm: (p, o) => fs.rm(p, o),
  };
};

/** The CSV batch cache of one index. The folder is created on the first write. */
export function createCsvCache(opts: CsvCacheOptions): BatchCache {
  const dir = cacheDir(opts.dataDir, opts.indexName);
  let fsP: Promise<CacheFs> | undefined;
  const getFs = () => (fsP ??= opts.fs ? Promise.resolve(opts.fs) : nodeFs());
  let made = false;

  return {
    async read(key, chunks) {
      const fs = await getFs();
      let text: string;
      try {
        text = await fs.readFile(`${dir}/${key}.csv`, 'utf8');
      } catch (err) {
        if ((err as { code?: string }).code === 'ENOENT') return null;
        throw err;
      }
      return fromCsv(text, chunks, opts.dimensions);
    },
    async write(key, chunks, vectors) {
      const fs = await getFs();
      if (!made) {
        await fs.mkdir(dir, { recursive: true });
        made = true;
      }
      const tmp = `${dir}/.${key}.${crypto.randomUUID().slice(0, 8)}.tmp`;
      await fs.writeFile(tmp, toCsv(chunks, vectors));
      await fs.rename(tmp, `${dir}/${key}.csv`);
    },
    async prune(keep) {
      const fs = await getFs();
      let names: string[];
      try {
        names = await fs.readdir(dir);
      } catch (err) {
        if ((err as { code?: string }).code === 'ENOENT') return 0;
        throw err;
      }
      let deleted = 0;
      for (const name of names) {
        // Leftover temp files of a killed run go too.
        const key = name.endsWith('.csv') ? name.slice(0, -4) : null;
        if (key !== null && keep.has(key)) continue;
        await fs.rm(`${dir}/${name}`, { force: true });
        deleted++;
      }
      return deleted;
    },
  };
}
