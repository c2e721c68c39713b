// Prints the one closing line CI reads, exactly "N passed, N failed"; skipped tests (a platform-dependent
// runIf) are said on the line before, so the closing line keeps its form.
//
//   node scripts/test-summary.mjs <results.json> [<rerun.json>]   the summary (exit 1 on any failure)
//   node scripts/test-summary.mjs --never-ran <results.json>      the files none of whose tests ran
//
// A test that never ran (vitest reports it "pending": its worker process died before it started, as a
// native crash in a child does) is not a pass: test.sh runs such files once more and hands both reports
// here; the rerun's results replace the first run's for those files, and a test that still never ran
// counts as failed.
import { readFileSync, existsSync } from 'node:fs';

const read = (file) => JSON.parse(readFileSync(file, 'utf8'));
const statuses = (f) => (f.assertionResults ?? []).map((a) => a.status);
const neverRan = (f) => statuses(f).includes('pending');

if (process.argv[2] === '--never-ran') {
  const file = process.argv[3];
  if (existsSync(file)) for (const f of read(file).testResults ?? []) if (neverRan(f)) console.log(f.name);
  process.exit(0);
}

const [file, rerunFile] = process.argv.slice(2);
if (!existsSync(file)) {
  console.log('0 passed, 1 failed');
  process.exit(1);
}
const first = read(file);
const rerun = rerunFile && existsSync(rerunFile) ? read(rerunFile) : null;
const rerunByName = new Map((rerun?.testResults ?? []).map((f) => [f.name, f]));
const files = (first.testResults ?? []).map((f) => rerunByName.get(f.name) ?? f);
if (rerun) console.log(`(ran again after a worker crash: ${[...rerunByName.keys()].join(', ')})`);

let passed = 0,
  failed = 0,
  skipped = 0;
for (const f of files) {
  const s = statuses(f);
  passed += s.filter((x) => x === 'passed').length;
  // a test that never ran is a failure, as is a file that failed without a failed test (it failed to
  // load, or its beforeAll threw and its tests were skipped)
  failed += s.filter((x) => x === 'failed' || x === 'pending').length;
  skipped += s.filter((x) => x === 'skipped' || x === 'todo').length;
  if (f.status === 'failed' && !s.some((x) => x === 'failed')) failed += 1;
}
// an unhandled error fails the run (vitest's success) unless it was the crash the rerun answered
const unhandled = first.success === false && failed === 0 && !rerun ? 1 : 0;
if (unhandled) console.log('vitest reported an error outside any test (see above)');
if (skipped) console.log(`(${skipped} skipped)`);
console.log(`${passed} passed, ${failed + unhandled} failed`);
process.exit(failed + unhandled > 0 || passed === 0 ? 1 : 0);
