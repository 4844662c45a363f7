/**
 * `status [--url <api>] [--wait <seconds>]`: prints the readiness report of a running server
 * (`GET /status`) as a checklist with the fix for each missing piece; `npm start` runs it once
 * the server is up. Exit code 0 when ready, 1 when something required is missing or the server
 * does not answer, 2 on bad arguments.
 */
import { loadConfig } from '../config.js';
import type { Status } from '../contract/status.js';
import { describeLabel } from '../contract/text-plan-lines.js';
import { sleep } from '../lib/timeout.js';
import { parseOptions, type Command } from './command.js';
import { trimChar } from '../lib/text.js';

const USAGE = 'usage: node dist/cli.js status [--url http://127.0.0.1:8000] [--wait <seconds>]';

/** The report as lines for a terminal: one per check, the fix under each one that failed. */
export function formatStatus(s: Status, urls: { api: string; ui: string }): string {
  const lines = [s.ready ? 'status: ready, chat answers' : 'status: not ready yet'];
  for (const c of s.checks) {
    const mark = c.ok ? '✓' : c.required ? '✗' : '!';
    lines.push(`  ${mark} ${c.title}${c.required ? '' : ' (optional)'}: ${c.detail}`);
    if (c.fix) lines.push(`      fix: ${c.fix}`);
  }
  if (s.index_text) {
    const t = s.index_text;
    lines.push(t.source === 'build' ? `  indexed text (as built ${t.built_at}):` : '  text a build would index:');
    for (const l of t.plan.labels) lines.push(`    ${describeLabel(l)}`);
    const f = t.filters;
    if (f)
      lines.push(
        `  filters inside the vector index: labels ${f.labels.join(', ') || 'none'}; properties ${f.properties.join(', ') || 'none'}`,
      );
  }
  if (s.sync) lines.push(`  ${syncLine(s.sync)}`);
  if (s.examples?.count)
    lines.push(`  agent examples: ${s.examples.count} in use, the closest ${s.examples.per_prompt} in each agent prompt`);
  lines.push(`  chat: ${urls.ui}   API docs: ${urls.api}/docs   report: ${urls.api}/status`);
  return lines.join('\n');
}

/** The sync's state in one line. */
function syncLine(sync: NonNullable<Status['sync']>): string {
  if (!sync.enabled) return 'index sync: off (INDEX_SYNC_INTERVAL_MS=0): run a build after changing the graph';
  const when = (ms: number | null) => (ms === null ? 'never' : `${Math.round((Date.now() - ms) / 1000)} s ago`);
  const state =
    sync.in_step === null
      ? 'state unknown'
      : sync.in_step
        ? 'in step with the graph'
        : `behind the graph${sync.behind_seconds === null ? '' : ` by ${sync.behind_seconds} s`}`;
  const failed = sync.last.filter((r) => r.outcome !== 'synced').map((r) => `${r.index}: ${r.outcome}${r.error ? ` (${r.error})` : ''}`);
  const src = sync.source?.name ? `; changes from ${SOURCE_NAMES[sync.source.name]}${sync.source.why ? ` (${sync.source.why})` : ''}` : '';
  return `index sync: every ${sync.interval_ms / 1000} s, ${state}; last checked ${when(sync.checked_at)}, last synced ${when(sync.synced_at)}${src}${failed.length ? `; ${failed.join('; ')}` : ''}`;
}

/** How the status line names each change source. */
const SOURCE_NAMES = { plugin: 'the change-log plugin', property: 'INDEX_CHANGED_PROPERTY', scan: 'the full check' } as const;

/** A listening address clients can use: a wildcard bind is reached on loopback. */
export const reachable = (host: string) =>
  host === '0.0.0.0' || host === '::' || host === '' ? '127.0.0.1' : host.includes(':') ? `[${host}]` : host;

/** Prints the report; waits up to `--wait` seconds for the server to answer. */
export const statusCommand: Command = async (args, env) => {
  const values = parseOptions(args, ['url', 'wait'], USAGE);
  if (typeof values === 'number') return values;
  const wait = Number(values.wait ?? 0);
  if (!(wait >= 0)) {
    console.error(`--wait must be a number of seconds\n${USAGE}`);
    return 2;
  }
  const config = loadConfig(env);
  const host = reachable(config.HOST);
  const api = trimChar(values.url ?? `http://${host}:${config.PORT}`, '/');
  const deadline = Date.now() + wait * 1000;
  for (;;) {
    try {
      const res = await fetch(`${api}/status`, { signal: AbortSignal.timeout(10_000) });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const status = (await res.json()) as Status;
      console.log(formatStatus(status, { api, ui: `http://${host}:${config.UI_PORT}` }));
      return status.ready ? 0 : 1;
    } catch (err) {
      if (Date.now() >= deadline) {
        console.error(`status: ${api}/status did not answer (${(err as Error).message})`);
        return 1;
      }
      await sleep(500);
    }
  }
};
