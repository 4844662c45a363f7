/** The shape of a CLI command module (src/cli/main.ts dispatches to them), and their argument parsing. */
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** Runs with the arguments after the command name and the environment; resolves to the exit code. */
export type Command = (args: string[], env: Record<string, string | undefined>) => Promise<number>;

/** String options, plus `--help`/`-h`. */
type StringOptions<K extends string> = Record<K, { type: 'string' }>;

/**
 * Parses `--name value` options. Returns the values, or the exit code when there is nothing
 * more to do: 0 after printing `usage` for `--help`, 2 after printing the error and `usage`.
 */
export function parseOptions<K extends string>(args: string[], names: readonly K[], usage: string): Partial<Record<K, string>> | number {
  const parsed = parseCommandLine(args, { strings: names }, usage);
  return typeof parsed === 'number' ? parsed : parsed.values;
}

/** What {@link parseCommandLine} found: string options, boolean flags and positional arguments. */
export interface CommandLine<K extends string, F extends string> {
  values: Partial<Record<K, string>> & Partial<Record<F, boolean>>;
  positionals: string[];
}

/**
 * Parses `--name value` options, `--flag` switches and positional arguments; the exit code
 * instead, as {@link parseOptions} does, for `--help` (0) or a bad option (2).
 */
export function parseCommandLine<K extends string, F extends string = never>(
  args: string[],
  spec: { strings: readonly K[]; flags?: readonly F[]; positionals?: boolean },
  usage: string,
): CommandLine<K, F> | number {
  const options = {
    ...(Object.fromEntries(spec.strings.map((n) => [n, { type: 'string' }])) as StringOptions<K>),
    ...Object.fromEntries((spec.flags ?? []).map((n) => [n, { type: 'boolean' }])),
    help: { type: 'boolean', short: 'h' },
  } as ParseArgsConfig['options'];
  let parsed: { values: Record<string, string | boolean | undefined>; positionals: string[] };
  try {
    parsed = parseArgs({ args, options, allowPositionals: spec.positionals ?? false } satisfies ParseArgsConfig) as typeof parsed;
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    return 2;
  }
  if (parsed.values.help) {
    console.log(usage);
    return 0;
  }
  return parsed as CommandLine<K, F>;
}
