// The closing line of `npm test`: every runner's counts added up, as one plain
// `tests: N passed, N failed, N skipped` line. Why: CI reads the last runner line it recognises, and
// schemathesis, the suite's last step, closes with a pytest-style `=== 1 warning in 41s ===` that
// reads as "no test ran". Sources: the vitest JSON reports and schemathesis's JUnit report that
// scripts/test.sh asks for under test-output/tally/ (each file written by this run only).
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const dir = process.argv[2] ?? 'test-output/tally';
let passed = 0;
let failed = 0;
let skipped = 0;
for (const file of readdirSync(dir)) {
  const text = readFileSync(join(dir, file), 'utf8');
  if (file.endsWith('.json')) {
    const r = JSON.parse(text);
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + r.numTodoTests;
  } else if (file.endsWith('.xml')) {
    // <testsuites tests=".." failures=".." errors=".." skipped="..">: one case per operation.
    const attr = (name) => Number(new RegExp(`<testsuites[^>]*\\b${name}="(\\d+)"`).exec(text)?.[1] ?? 0);
    const bad = attr('failures') + attr('errors');
    passed += attr('tests') - bad - attr('skipped');
    failed += bad;
    skipped += attr('skipped');
  }
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
