import { describe, expect, it } from 'vitest';
import { createProgressPrinter, describeProgress, formatDuration } from '../../../../src/cli/progress.js';
import type { BuildProgress } from '../../../../src/vector-index/build/build.js';
import { createProgressTracker, progressEvery, type ProgressView } from '../../../../src/vector-index/build/progress.js';

const p = (over: Partial<BuildProgress>): BuildProgress => ({
  phase: 'embedding',
  nodesTotal: 1000,
  nodesDone: 250,
  chunksDone: 400,
  batchesDone: 4,
  batchesComputed: 3,
  batchesSkipped: 1,
  indexPercent: 0,
  ...over,
});

describe('build progress', () => {
  it('formats durations', () => {
    expect(formatDuration(0)).toBe('0:00');
    expect(formatDuration(75)).toBe('1:15');
    expect(formatDuration(3725)).toBe('1:02:05');
    expect(formatDuration(NaN)).toBe('--:--');
  });

  it('estimates rate and ETA from nodes done', () => {
    let now = 0;
    const track = createProgressTracker(() => now);
    now = 10_000;
    const view = track(p({}));
    expect(view).toMatchObject({ percent: 23.8, chunks_per_second: 40, eta_seconds: 30, elapsed_seconds: 10 });
    const text = describeProgress(view);
    expect(text).toContain('400 chunks');
    expect(text).toContain('40 chunks/s');
    expect(text).toContain('ETA 0:30'); // 10 s for 25% → 30 s left
    expect(text).toContain('3 embedded, 1 cached');
  });

  it('an overall percentage that never goes back, through every phase', () => {
    const track = createProgressTracker(() => 0);
    const reports = [
      p({ nodesDone: 0 }),
      p({ nodesDone: 500 }),
      p({ nodesDone: 400 }), // cannot happen, but must not move the bar back
      p({ phase: 'cleanup', nodesDone: 1000 }),
      p({ phase: 'indexing', nodesDone: 1000, indexPercent: 0 }),
      p({ phase: 'indexing', nodesDone: 1000, indexPercent: 60 }),
      p({ phase: 'done', nodesDone: 1000, indexPercent: 100 }),
    ];
    const percents = reports.map((r) => track(r).percent);
    expect(percents).toEqual([0, 47.5, 47.5, 95, 95, 98, 100]);
    expect(track(p({ phase: 'cleanup' })).eta_seconds).toBeNull();
  });

  it('passes views at most every interval, and every phase change', () => {
    const seen: ProgressView[] = [];
    let now = 0;
    const on = progressEvery(
      1000,
      (v) => seen.push(v),
      () => now,
    );
    on(p({ nodesDone: 1 }));
    now = 10;
    on(p({ nodesDone: 2 }));
    now = 1500;
    on(p({ nodesDone: 3 }));
    on(p({ phase: 'cleanup' }));
    on(p({ phase: 'done' }));
    expect(seen.map((v) => `${v.phase}:${v.nodes_done}`)).toEqual(['embedding:1', 'embedding:3', 'cleanup:250', 'done:250']);
  });

  it('prints throttled plain lines when not on a terminal', () => {
    const lines: string[] = [];
    let now = 0;
    const printer = createProgressPrinter({ stream: { isTTY: false, write: (s) => lines.push(s) }, now: () => now });
    printer.onProgress(p({}));
    now = 500;
    printer.onProgress(p({ nodesDone: 300 })); // throttled
    now = 2600;
    printer.onProgress(p({ nodesDone: 500 }));
    printer.onProgress(p({ phase: 'indexing', indexPercent: 40 })); // a phase change always prints
    expect(lines).toHaveLength(3);
    expect(lines.every((l) => l.endsWith('\n') && !l.includes('\r'))).toBe(true);
    expect(lines[2]).toContain('vector index 40% online');
  });

  it('redraws one bar line on a terminal', () => {
    const out: string[] = [];
    let now = 0;
    const printer = createProgressPrinter({ stream: { isTTY: true, columns: 200, write: (s) => out.push(s) }, now: () => now });
    printer.onProgress(p({}));
    now = 1000;
    printer.onProgress(p({ nodesDone: 500 }));
    printer.finish();
    expect(out[0]!.startsWith('\r[')).toBe(true);
    expect(out[1]).toContain(' 48%'); // half the nodes: half of the embedding phase's 95%
    expect(out.at(-1)).toBe('\n');
  });
});
