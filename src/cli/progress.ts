/**
 * Progress output of `build-index`: a redrawn bar on a terminal (chunks done, rate, ETA), plain
 * lines every few seconds otherwise (logs, CI, pipes). The figures come from the same tracker as
 * the HTTP build's event stream (src/vector-index/progress.ts).
 */
import { progressEvery, type ProgressView } from '../vector-index/progress.js';

/** Options of {@link createProgressPrinter}. */
export interface ProgressPrinterOptions {
  /** Where output goes (default `process.stderr`). */
  stream?: { isTTY?: boolean; columns?: number; write(s: string): unknown };
  /** Seconds between plain lines when not on a terminal (default 2). */
  lineEverySeconds?: number;
  /** Clock in ms (tests). */
  now?: () => number;
}

/** Formats seconds as `m:ss` (or `h:mm:ss`). */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '--:--';
  const s = Math.round(seconds);
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const ss = String(s % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`;
}

const num = (n: number) => Math.round(n).toLocaleString('en-US');

/** One progress line: chunks, rate, ETA, batches (or the phase after embedding). */
export function describeProgress(v: ProgressView): string {
  if (v.phase === 'cleanup') return `removing stale chunks · ${num(v.chunks_done)} chunks`;
  if (v.phase === 'indexing' || v.phase === 'done')
    return `vector index ${v.index_percent.toFixed(0)}% online · ${num(v.chunks_done)} chunks`;
  return (
    `${num(v.chunks_done)} chunks · ${num(v.chunks_per_second)} chunks/s · ETA ${formatDuration(v.eta_seconds ?? NaN)} · ` +
    `nodes ${num(v.nodes_done)}/${num(v.nodes_total)} · batches ${v.batches_computed} embedded, ${v.batches_skipped} cached`
  );
}

/** A progress callback for `buildVectorIndex`, plus `finish()` to end the bar's line. */
export function createProgressPrinter(opts: ProgressPrinterOptions = {}) {
  const out = opts.stream ?? process.stderr;
  const tty = Boolean(out.isTTY);
  const every = (opts.lineEverySeconds ?? 2) * 1000;
  let drawn = false;

  const draw = (view: ProgressView) => {
    const text = describeProgress(view);
    const pct = `${view.percent.toFixed(0).padStart(3)}%`;
    if (!tty) {
      out.write(`build-index: ${view.phase} ${pct} ${text}\n`);
      return;
    }
    const width = 24;
    const full = Math.round((view.percent / 100) * width);
    const line = `[${'█'.repeat(full)}${'░'.repeat(width - full)}] ${pct} ${text}`;
    const cols = out.columns ?? 120;
    out.write(`\r${line.slice(0, cols - 1).padEnd(Math.min(cols - 1, line.length))}\x1b[K`);
    drawn = true;
  };
  return {
    onProgress: progressEvery(tty ? 100 : every, draw, opts.now),
    finish() {
      if (tty && drawn) out.write('\n');
    },
  };
}
