import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/** The closing line CI reads, from vitest's JSON report (scripts/test-summary.mjs). */
describe('test-summary', () => {
  const dir = mkdtempSync(join(tmpdir(), 'signet-summary-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const run = (report: object) => {
    const file = join(dir, `${Math.random().toString(16).slice(2)}.json`);
    writeFileSync(file, JSON.stringify(report));
    try {
      return { out: execFileSync('node', [join(import.meta.dirname, 'test-summary.mjs'), file], { encoding: 'utf8' }), code: 0 };
    } catch (e) {
      const err = e as { stdout: string; status: number };
      return { out: err.stdout, code: err.status };
    }
  };
  const file = (status: string, tests: string[]) => ({ status, assertionResults: tests.map((s) => ({ status: s })) });

  it('counts a file whose setup threw (its tests skipped) as one failure, and exits 1', () => {
    const r = run({
      numPassedTests: 3,
      numFailedTests: 0,
      numPendingTests: 2,
      testResults: [file('failed', ['skipped', 'skipped']), file('passed', ['passed', 'passed', 'passed'])],
    });
    expect(r.out.trim().split('\n').at(-1)).toBe('3 passed, 1 failed');
    expect(r.code).toBe(1);
  });

  it('counts failed tests once, not their file again; a file that failed to load counts as one', () => {
    const r = run({
      numPassedTests: 1,
      numFailedTests: 2,
      testResults: [file('failed', ['failed', 'failed', 'passed']), file('failed', [])],
    });
    expect(r.out.trim().split('\n').at(-1)).toBe('1 passed, 3 failed');
    expect(r.code).toBe(1);
  });

  it('says all passed and exits 0 when nothing failed; a missing report is a failure', () => {
    const ok = run({ numPassedTests: 2, numFailedTests: 0, testResults: [file('passed', ['passed', 'passed'])] });
    expect(ok).toEqual({ out: '2 passed, 0 failed\n', code: 0 });
    const missing = (() => {
      try {
        return execFileSync('node', [join(import.meta.dirname, 'test-summary.mjs'), join(dir, 'none.json')], {
          encoding: 'utf8',
        });
      } catch (e) {
        return (e as { stdout: string }).stdout;
      }
    })();
    expect(missing.trim()).toBe('0 passed, 1 failed');
  });
});
