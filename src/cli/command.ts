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
  const options = Object.fromEntries(names.map((n) => [n, { type: 'string' }])) as StringOptions<K>;
  let values: Record<string, string | boolean | undefined>;
  try {
    ({ values } = parseArgs({ args, options: { ...options, help: { type: 'boolean', short: 'h' } } } satisfies ParseArgsConfig));
  } catch (err) {
    console.error(`${(err as Error).message}\n${usage}`);
    return 2;
  }
  if (values.help) {
    console.log(usage);
    return 0;
  }
  return values as Partial<Record<K, string>>;
}
