/**
 * CPU time of processes from /proc (Linux): what each process of a benchmark spent per request,
 * the breakdown latency alone cannot give on a machine where everyone shares two cores.
 */
import { readFileSync } from 'node:fs';

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
