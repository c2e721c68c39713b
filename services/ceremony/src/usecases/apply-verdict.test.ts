import { describe, expect, it } from 'vitest';
import type { CaptureRecord } from '../domain/session.js';
import { fakeMetrics, fakeSessions, sessionRecord } from '../../test/fakes.js';
import { applyVerdict } from './apply-verdict.js';

const capture = (id: string) => ({ capture_id: id, outcome: null }) as CaptureRecord;

describe('applyVerdict', () => {
  it('records PASS without failed checks, ERROR as such, and anything else as FAIL with them, once', async () => {
    const m = fakeMetrics();
    const sessions = fakeSessions(sessionRecord({ captures: [capture('c1'), capture('c2'), capture('c3')] }));
    const deps = { sessions, metrics: m.metrics };
    const v = { transactionId: 42, signerIndex: 0, failedChecks: ['words'] };
    expect(await applyVerdict(deps, { ...v, captureId: 'c1', outcome: 'PASS' })).toBe(true);
    expect(await applyVerdict(deps, { ...v, captureId: 'c2', outcome: 'UNKNOWN' })).toBe(true);
    expect(await applyVerdict(deps, { ...v, captureId: 'c3', outcome: 'ERROR', failedChecks: ['analysis_error'] })).toBe(true);
    expect(sessions.current.captures).toMatchObject([
      { outcome: 'PASS', failed_checks: [] },
      { outcome: 'FAIL', failed_checks: ['words'] },
      { outcome: 'ERROR', failed_checks: ['analysis_error'] },
    ]);
    // A redelivery, or a verdict for a capture the session does not have, changes nothing and is not counted.
    expect(await applyVerdict(deps, { ...v, captureId: 'c2', outcome: 'PASS' })).toBe(false);
    expect(await applyVerdict(deps, { ...v, captureId: 'c9', outcome: 'PASS' })).toBe(false);
    expect(sessions.current.captures[1]!.outcome).toBe('FAIL');
    expect(m.counted('verdicts', {})).toBe(3);
    expect(m.counted('verdicts', { outcome: 'ERROR' })).toBe(1);
  });
});
