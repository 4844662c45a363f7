/**
 * CPU time of processes from /proc (Linux): what each process of a benchmark spent per request,
 * the breakdown latency alone cannot give on a machine where everyone shares two cores. Also
 * the other readings benches print beside it: a process's resident memory, a directory's size
 * on disk, the load average.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { loadavg } from 'node:os';

/** Clock ticks per second of /proc/<pid>/stat (USER_HZ; 100 on every Linux build in use). */
const TICKS = 100;

/** User + system CPU milliseconds of process `pid` (all its threads), or NaN when unreadable. */
export function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // Fields after the command name (which may hold spaces) start at ")"; utime and stime are 14 and 15.
    const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(f[11]) + Number(f[12])) * 1000) / TICKS;
  } catch {
    return Number.NaN;
  }
}

/** A reading of several named processes; `since` gives the milliseconds each spent after it. */
export function cpuReading(pids: Record<string, number>) {
  const start = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid)]));
  return {
    since: (): Record<string, number> => Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMs(pid) - start[name]!])),
  };
}

/** Resident memory of process `pid` in bytes (VmRSS of /proc/<pid>/status), or NaN when unreadable. */
export function vmRssBytes(pid: number): number {
  try {
    return Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? Number.NaN) * 1024;
  } catch {
    return Number.NaN;
  }
}

/** `du -sk` of `dir` in bytes; NaN when it does not exist. */
export function duBytes(dir: string): number {
  return existsSync(dir) ? Number(execFileSync('du', ['-sk', dir], { encoding: 'utf8' }).split('\t')[0]) * 1024 : Number.NaN;
}

/** The 1, 5 and 15 minute load averages, as printed beside figures ("3.10 2.95 2.40"). */
export function loadAverages(): string {
  return loadavg()
    .map((x) => x.toFixed(2))
    .join(' ');
}
