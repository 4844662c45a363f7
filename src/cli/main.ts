/** CLI entry (`node dist/cli.js <command>`); commands are added per area. */
const [command] = process.argv.slice(2);
console.error(`unknown command: ${command ?? '(none)'}`);
process.exit(2);
