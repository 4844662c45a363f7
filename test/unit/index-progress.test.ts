import { describe, expect, it } from 'vitest';
import { createProgressPrinter, describeProgress, formatDuration } from '../../src/cli/progress.js';
import type { BuildProgress } from '../../src/vector-index/index-build.js';

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
    const { fraction, text } = describeProgress(p({}), 10);
    expect(fraction).toBe(0.25);
    expect(text).toContain('400 chunks');
    expect(text).toContain('40 chunks/s');
    expect(text).toContain('ETA 0:30'); // 10 s for 25% → 30 s left
    expect(text).toContain('3 embedded, 1 cached');
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
    expect(out[1]).toContain(' 50%');
    expect(out.at(-1)).toBe('\n');
  });
});
