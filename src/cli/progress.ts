/**
 * Progress output of `build-index`: a redrawn bar on a terminal (chunks done, rate, ETA), plain
 * lines every few seconds otherwise (logs, CI, pipes). The ETA is estimated from source nodes
 * done, the only quantity whose total is known before the texts are chunked.
 */
import type { BuildProgress } from '../vector-index/index-build.js';

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

/** One progress description: percentage, chunks, rate, ETA, batches. */
export function describeProgress(p: BuildProgress, elapsedSeconds: number): { fraction: number; text: string } {
  if (p.phase === 'cleanup') return { fraction: 1, text: `removing stale chunks · ${num(p.chunksDone)} chunks` };
  if (p.phase === 'indexing' || p.phase === 'done') {
    return { fraction: p.indexPercent / 100, text: `vector index ${p.indexPercent.toFixed(0)}% online · ${num(p.chunksDone)} chunks` };
  }
  const fraction = p.nodesTotal ? Math.min(1, p.nodesDone / p.nodesTotal) : 0;
  const rate = elapsedSeconds > 0 ? p.chunksDone / elapsedSeconds : 0;
  const eta = fraction > 0 ? (elapsedSeconds * (1 - fraction)) / fraction : NaN;
  const text =
    `${num(p.chunksDone)} chunks · ${num(rate)} chunks/s · ETA ${formatDuration(eta)} · ` +
    `nodes ${num(p.nodesDone)}/${num(p.nodesTotal)} · batches ${p.batchesComputed} embedded, ${p.batchesSkipped} cached`;
  return { fraction, text };
}

/** A progress callback for `buildVectorIndex`, plus `finish()` to end the bar's line. */
export function createProgressPrinter(opts: ProgressPrinterOptions = {}) {
  const out = opts.stream ?? process.stderr;
  const now = opts.now ?? (() => performance.now());
  const started = now();
  const tty = Boolean(out.isTTY);
  const every = (opts.lineEverySeconds ?? 2) * 1000;
  let lastDraw = -Infinity;
  let lastPhase = '';
  let drawn = false;

  const onProgress = (p: BuildProgress) => {
    const t = now();
    const phaseChanged = p.phase !== lastPhase;
    if (!phaseChanged && t - lastDraw < (tty ? 100 : every)) return;
    lastDraw = t;
    lastPhase = p.phase;
    const { fraction, text } = describeProgress(p, (t - started) / 1000);
    const pct = `${(fraction * 100).toFixed(0).padStart(3)}%`;
    if (!tty) {
      out.write(`build-index: ${p.phase} ${pct} ${text}\n`);
      return;
    }
    const width = 24;
    const full = Math.round(fraction * width);
    const line = `[${'█'.repeat(full)}${'░'.repeat(width - full)}] ${pct} ${text}`;
    const cols = out.columns ?? 120;
    out.write(`\r${line.slice(0, cols - 1).padEnd(Math.min(cols - 1, line.length))}\x1b[K`);
    drawn = true;
  };
  return {
    onProgress,
    finish() {
      if (tty && drawn) out.write('\n');
    },
  };
}
