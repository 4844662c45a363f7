/**
 * The one view of a running build's progress that both the CLI's progress bar and the
 * `text/event-stream` answer of `POST /dev/build_vector_index` show: an overall percentage
 * that never goes back, chunks done, rate and ETA. The ETA is estimated from source nodes done,
 * the only quantity whose total is known before the texts are chunked; the embedding phase is
 * counted as 95% of the build, the cleanup and index population as the rest.
 */
import type { BuildProgress } from './build.js';

/** A progress report as clients see it (snake_case: it is also a wire shape). */
export interface ProgressView {
  phase: BuildProgress['phase'];
  /** Of the whole build, 0..100, monotonic. */
  percent: number;
  nodes_done: number;
  nodes_total: number;
  chunks_done: number;
  batches_done: number;
  batches_computed: number;
  batches_skipped: number;
  /** Nodes left out because their content failed (the build goes on without them). */
  nodes_skipped: number;
  /** Population of the vector index, 0..100 (phase `indexing`). */
  index_percent: number;
  elapsed_seconds: number;
  chunks_per_second: number;
  /** Seconds left while embedding; null before the first batch and after embedding. */
  eta_seconds: number | null;
}

const EMBEDDING_SHARE = 95;
const round1 = (n: number) => Math.round(n * 10) / 10;

/** Turns the build's reports into {@link ProgressView}s, timed from the tracker's creation. */
export function createProgressTracker(now: () => number = () => performance.now()): (p: BuildProgress) => ProgressView {
  const started = now();
  let floor = 0;
  return (p) => {
    const elapsed = (now() - started) / 1000;
    const embedded = p.nodesTotal ? Math.min(1, p.nodesDone / p.nodesTotal) : p.phase === 'embedding' ? 0 : 1;
    const raw =
      p.phase === 'embedding'
        ? EMBEDDING_SHARE * embedded
        : p.phase === 'done'
          ? 100
          : EMBEDDING_SHARE + (p.phase === 'indexing' ? ((100 - EMBEDDING_SHARE) * p.indexPercent) / 100 : 0);
    floor = Math.max(floor, Math.min(100, raw));
    const eta = p.phase === 'embedding' && embedded > 0 ? (elapsed * (1 - embedded)) / embedded : null;
    return {
      phase: p.phase,
      percent: round1(floor),
      nodes_done: p.nodesDone,
      nodes_total: p.nodesTotal,
      chunks_done: p.chunksDone,
      batches_done: p.batchesDone,
      batches_computed: p.batchesComputed,
      batches_skipped: p.batchesSkipped,
      nodes_skipped: p.nodesSkipped ?? 0,
      index_percent: p.indexPercent,
      elapsed_seconds: round1(elapsed),
      chunks_per_second: elapsed > 0 ? round1(p.chunksDone / elapsed) : 0,
      eta_seconds: eta === null ? null : round1(eta),
    };
  };
}

/**
 * A build's `onProgress` callback that passes views to `emit` at most every `everyMs`, except
 * that a change of phase is always passed (so the last report of each phase is never lost).
 */
export function progressEvery(everyMs: number, emit: (v: ProgressView) => void, now: () => number = () => performance.now()) {
  const track = createProgressTracker(now);
  let last = -Infinity;
  let phase = '';
  return (p: BuildProgress): void => {
    const t = now();
    if (p.phase === phase && t - last < everyMs) return;
    last = t;
    phase = p.phase;
    emit(track(p));
  };
}
