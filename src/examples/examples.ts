/**
 * The agent's examples of each graph: those of the examples file (`EXAMPLES_FILE`, read-only)
 * and those added at run time (src/store/examples.ts), each checked against the graph
 * (./check.ts), and the closest to a question by meaning.
 *
 * Similarity: the questions are embedded with the index's model (`EMBEDDING_MODEL`, the one
 * search embeds queries with) and ranked by cosine similarity to the question; the examples'
 * vectors are computed once per load. When the model does not answer (files not fetched, its
 * server down) the ranking falls back to the share of words the questions have in common, so
 * examples still reach the prompt.
 *
 * A checked set is kept per graph and checked again when the added list's length changes (one
 * LLEN per question, so an example added through another process is seen at once) or when it is
 * older than `SKELETON_REFRESH_MS` (the graph's names may have changed; the old set serves
 * while the new one is checked).
 */
import { readFile } from 'node:fs/promises';
import type { Config } from '../config.js';
import type { EmbedderPool } from '../embeddings/embedders.js';
import type { GraphStore } from '../graph/access/driver.js';
import type { SkeletonCache } from '../graph/shape/skeleton-cache.js';
import type { Logger } from '../lib/log.js';
import type { NamesByMeaning } from '../lib/names-by-meaning.js';
import type { ExampleStore } from '../store/examples.js';
import { checkExampleQuery } from './check.js';
import { type Example, parseExamples, readExample, type RejectedExample } from './format.js';
import { cosine } from '../lib/vector.js';
import { inPool } from '../lib/pool.js';
import { rankBy, wordOverlap } from './prompt.js';

/** One graph's examples after checking. */
export interface ExampleSet {
  examples: Example[];
  rejected: RejectedExample[];
  /** The examples file read (`EXAMPLES_FILE`), or null when none is set. */
  file: string | null;
  /** Why the file could not be read; absent when it was. */
  fileError?: string;
  /** Unix ms of the check. */
  checkedAt: number;
  /** Question vectors by question, when the model answered. */
  vectors: Map<string, Float32Array> | null;
}

/** The examples of the graphs the service answers about. */
export interface AgentExamples {
  /** The checked set of `graph` (cached as the file comment says). */
  load(graph: string): Promise<ExampleSet>;
  /**
   * Checks an example and, when it passes, stores it for every process.
   * @returns the stored example, or why it was rejected (nothing stored).
   */
  add(graph: string, fields: unknown): Promise<{ example: Example } | { rejected: RejectedExample }>;
  /** The `n` examples closest to `question`, closest first; [] without examples or when they cannot be read. */
  closest(graph: string, question: string, n: number): Promise<Example[]>;
  /** The cached set without waiting, or null before the first load. */
  peek(graph: string): ExampleSet | null;
}

/** What the examples use. */
export interface AgentExamplesDeps {
  config: Pick<Config, 'EXAMPLES_FILE' | 'EMBEDDING_MODEL' | 'GRAPH_QUERY_TIMEOUT_MS' | 'SKELETON_REFRESH_MS'>;
  graph: GraphStore;
  skeleton: Pick<SkeletonCache, 'schema'>;
  embedders: Pick<EmbedderPool, 'get'>;
  store: ExampleStore;
  meaning?: NamesByMeaning;
  log?: Logger;
}

/** Examples checked at once. */
const CHECKS_AT_ONCE = 4;
/** Questions embedded per call. */
const EMBED_BATCH = 64;
/** How long a load waits for the graph's schema, in ms. */
const SCHEMA_WAIT_MS = 5_000;

/** Embeds `texts` with the index's model, in batches. */
async function embedQuestions(deps: AgentExamplesDeps, texts: string[]): Promise<Float32Array[]> {
  const embedder = await deps.embedders.get(deps.config.EMBEDDING_MODEL);
  const out: Float32Array[] = [];
  for (let i = 0; i < texts.length; i += EMBED_BATCH) out.push(...(await embedder.embed(texts.slice(i, i + EMBED_BATCH))));
  return out;
}

/** The file's examples of `graph`, those it could not read, and why it could not be read at all. */
async function readFileExamples(file: string | undefined, graph: string) {
  if (!file) return { examples: [] as Example[], rejected: [] as RejectedExample[] };
  try {
    return parseExamples(await readFile(file, 'utf8'), graph);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code ?? (err as Error).message;
    return { examples: [] as Example[], rejected: [] as RejectedExample[], fileError: `cannot read ${file}: ${code}` };
  }
}

/** The added examples of `graph`, and the entries that are not examples. */
async function readAdded(store: ExampleStore, graph: string) {
  const examples: Example[] = [];
  const rejected: RejectedExample[] = [];
  (await store.list(graph)).forEach((raw, i) => {
    const fields = typeof raw === 'string' ? null : { question: raw.question, cypher: raw.cypher, note: raw.note };
    const read = readExample(fields, 'added', i + 1);
    if ('rejected' in read) rejected.push(read.rejected);
    else examples.push(read.example);
  });
  return { examples, rejected };
}

/** Why each of `examples` cannot be used (null: it can), checked against the graph. */
async function checkAll(deps: AgentExamplesDeps, graph: string, examples: Example[]): Promise<(string | null)[]> {
  if (!examples.length) return [];
  const schema = await deps.skeleton.schema(graph, SCHEMA_WAIT_MS);
  const timeoutMs = deps.config.GRAPH_QUERY_TIMEOUT_MS;
  return inPool(examples, CHECKS_AT_ONCE, (e) =>
    checkExampleQuery({ graph: deps.graph, schema, meaning: deps.meaning, timeoutMs }, graph, e.cypher),
  );
}

/** Reads, checks and embeds the examples of `graph`. */
async function buildSet(deps: AgentExamplesDeps, graph: string): Promise<ExampleSet> {
  const [file, added] = await Promise.all([readFileExamples(deps.config.EXAMPLES_FILE, graph), readAdded(deps.store, graph)]);
  const candidates = [...file.examples, ...added.examples];
  const reasons = await checkAll(deps, graph, candidates);
  const examples = candidates.filter((_, i) => reasons[i] === null);
  const rejected = [
    ...file.rejected,
    ...added.rejected,
    ...candidates.flatMap((e, i) => (reasons[i] ? [{ source: e.source, line: e.line, question: e.question, reason: reasons[i] }] : [])),
  ].sort((a, b) => (a.source === b.source ? a.line - b.line : a.source === 'file' ? -1 : 1));
  let vectors: Map<string, Float32Array> | null = null;
  if (examples.length) {
    try {
      const questions = [...new Set(examples.map((e) => e.question))];
      const vs = await embedQuestions(deps, questions);
      vectors = new Map(questions.map((q, i) => [q, vs[i]!]));
    } catch (err) {
      deps.log?.warn('examples: the embedding model did not answer; ranking by words in common', { error: err });
    }
  }
  for (const r of rejected) deps.log?.warn('example rejected', { graph, source: r.source, line: r.line, reason: r.reason });
  return {
    examples,
    rejected,
    file: deps.config.EXAMPLES_FILE ?? null,
    ...('fileError' in file && file.fileError ? { fileError: file.fileError } : {}),
    checkedAt: Date.now(),
    vectors,
  };
}

/** Creates the examples over the app's dependencies. */
export function createAgentExamples(deps: AgentExamplesDeps): AgentExamples {
  const { config, store } = deps;
  const cache = new Map<string, { set: Promise<ExampleSet>; added: number; at: number; done: ExampleSet | null }>();
  const build = (graph: string) => buildSet(deps, graph);
  const embed = (texts: string[]) => embedQuestions(deps, texts);

  const load = async (graph: string): Promise<ExampleSet> => {
    const entry = cache.get(graph);
    const added = await store.count(graph).catch(() => entry?.added ?? 0);
    if (entry && entry.added === added) {
      if (Date.now() - entry.at < config.SKELETON_REFRESH_MS || !entry.done) return entry.set;
      // Old: checked again in the background; the old set serves meanwhile.
      const old = entry.done;
      start(graph, added, old);
      return old;
    }
    return start(graph, added, entry?.done ?? null).set;
  };

  const start = (graph: string, added: number, previous: ExampleSet | null) => {
    const set = build(graph);
    const entry = { set, added, at: Date.now(), done: previous };
    cache.set(graph, entry);
    set.then(
      (s) => {
        if (cache.get(graph) === entry) entry.done = s;
      },
      () => {
        // A failed check (the database down) is tried again on the next question.
        if (cache.get(graph) === entry) cache.delete(graph);
      },
    );
    return entry;
  };

  return {
    load,
    peek: (graph) => cache.get(graph)?.done ?? null,
    async add(graph, fields) {
      const read = readExample(fields, 'added', (await store.count(graph)) + 1);
      if ('rejected' in read) return read;
      const schema = await deps.skeleton.schema(graph, SCHEMA_WAIT_MS);
      const reason = await checkExampleQuery(
        { graph: deps.graph, schema, meaning: deps.meaning, timeoutMs: config.GRAPH_QUERY_TIMEOUT_MS },
        graph,
        read.example.cypher,
      );
      if (reason) return { rejected: { source: 'added', line: read.example.line, question: read.example.question, reason } };
      const { question, cypher, note } = read.example;
      const line = await store.add(graph, { question, cypher, ...(note ? { note } : {}) });
      cache.delete(graph);
      return { example: { ...read.example, line } };
    },
    async closest(graph, question, n) {
      if (n <= 0) return [];
      let set: ExampleSet;
      try {
        set = await load(graph);
      } catch (err) {
        deps.log?.warn('examples could not be checked; answering without them', { error: err });
        return [];
      }
      if (!set.examples.length) return [];
      let qv: Float32Array | undefined;
      if (set.vectors) {
        qv = await embed([question]).then(
          (v) => v[0],
          () => undefined,
        );
      }
      const vectors = set.vectors;
      const score =
        qv && vectors ? (e: Example) => cosine(qv, vectors.get(e.question)!) : (e: Example) => wordOverlap(question, e.question);
      return rankBy(set.examples, score).slice(0, n);
    },
  };
}
