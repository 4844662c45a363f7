/** The shape of a CLI command module (src/cli/main.ts dispatches to them). */

/** Runs with the arguments after the command name and the environment; resolves to the exit code. */
export type Command = (args: string[], env: Record<string, string | undefined>) => Promise<number>;
