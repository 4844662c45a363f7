/**
 * Progress output of the CLI: a redrawn bar on a terminal, plain lines otherwise (logs, CI,
 * pipes). `build-index` draws its figures (chunks done, rate, ETA) from the same tracker as the
 * HTTP build's event stream (src/vector-index/build/progress.ts); `eval` draws questions answered.
 */
import { progressEvery, type ProgressView } from '../vector-index/build/progress.js';

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

/** Options of {@link createProgressBar}. */
export interface ProgressBarOptions {
  /** Where output goes (default `process.stderr`). */
  stream?: ProgressPrinterOptions['stream'];
  /** Prefix of the plain lines written when the stream is not a terminal, e.g. `build-index`. */
  label: string;
}

/**
 * One progress line: on a terminal a bar redrawn in place (`[████░░] 40% text`), otherwise a
 * plain line per call (logs and pipes keep every report). Callers decide how often to draw.
 */
export function createProgressBar(opts: ProgressBarOptions) {
  const out = opts.stream ?? process.stderr;
  const tty = Boolean(out.isTTY);
  let drawn = false;
  return {
    /** Whether the stream is a terminal (callers draw more often there). */
    tty,
    /** Draws `percent` (0..100) with `text`, `phase` before it on plain lines. */
    draw(percent: number, text: string, phase = '') {
      const pct = `${percent.toFixed(0).padStart(3)}%`;
      if (!tty) {
        out.write(`${opts.label}: ${phase ? `${phase} ` : ''}${pct} ${text}\n`);
        return;
      }
      const width = 24;
      const full = Math.max(0, Math.min(width, Math.round((percent / 100) * width)));
      const line = `[${'█'.repeat(full)}${'░'.repeat(width - full)}] ${pct} ${text}`;
      const cols = out.columns ?? 120;
      out.write(`\r${line.slice(0, cols - 1).padEnd(Math.min(cols - 1, line.length))}\x1b[K`);
      drawn = true;
    },
    /** Ends the bar's line, so that what is printed next starts on a line of its own. */
    finish() {
      if (tty && drawn) out.write('\n');
      drawn = false;
    },
  };
}

/** A progress callback for `buildVectorIndex`, plus `finish()` to end the bar's line. */
export function createProgressPrinter(opts: ProgressPrinterOptions = {}) {
  const bar = createProgressBar({ stream: opts.stream, label: 'build-index' });
  const every = (opts.lineEverySeconds ?? 2) * 1000;
  return {
    onProgress: progressEvery(bar.tty ? 100 : every, (v) => bar.draw(v.percent, describeProgress(v), v.phase), opts.now),
    finish: bar.finish,
  };
}
