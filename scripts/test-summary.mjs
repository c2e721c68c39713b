// Prints the one closing line CI reads, exactly "N passed, N failed"; skipped tests (a platform-dependent
// runIf) are said on the line before, so the closing line keeps its form.
import { readFileSync, existsSync } from 'node:fs';

const file = process.argv[2];
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const r = JSON.parse(readFileSync(file, 'utf8'));
const skipped = (r.numPendingTests ?? 0) + (r.numTodoTests ?? 0);
// A file that failed without a failed test (it failed to load, or its beforeAll threw and its tests were
// skipped) counts as one failure.
const brokenFiles = (r.testResults ?? []).filter(
  (f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed'),
).length;
const failed = r.numFailedTests + brokenFiles;
if (skipped) console.log(`(${skipped} skipped)`);
console.log(`${r.numPassedTests} passed, ${failed} failed`);
process.exit(failed > 0 || r.numPassedTests === 0 ? 1 : 0);
