/**
 * CLI entry (`node dist/cli.js <command> [args]`): parses config from the environment like the
 * server does and runs one command. Commands are small modules of their own.
 */
// From config.ts, not server.ts: a CLI command should not load the whole app to print an error.
import { describeStartError } from '../config.js';
import { buildIndexCommand } from './build-index.js';
import type { Command } from './command.js';
import { evalCommand } from './eval/command.js';
import { examplesCommand } from './examples.js';
import { loadSampleCommand } from './load-sample.js';
import { statusCommand } from './status.js';

const COMMANDS: Record<string, Command> = {
  'build-index': buildIndexCommand,
  eval: evalCommand,
  examples: examplesCommand,
  'load-sample': loadSampleCommand,
  status: statusCommand,
};

const [name, ...args] = process.argv.slice(2);
const command = name ? COMMANDS[name] : undefined;
if (!command) {
  console.error(`usage: node dist/cli.js <${Object.keys(COMMANDS).join('|')}> [options]`);
  process.exit(2);
}
try {
  process.exitCode = await command(args, process.env);
} catch (err) {
  console.error(describeStartError(err));
  process.exitCode = 1;
}
