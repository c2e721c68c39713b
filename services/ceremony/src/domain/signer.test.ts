import { describe, expect, it } from 'vitest';
import { sessionRecord, signingContext } from '../../test/fakes.js';
import type { CaptureRecord } from './session.js';
import { stepOf } from './signer.js';
import { summarize } from './summary.js';

const captured = (outcome: string | null, failed_checks: string[] = []) =>
  sessionRecord({ attempt: 1, captures: [{ capture_id: 'c1', outcome, failed_checks } as CaptureRecord] });

describe('the step after a verdict', () => {
  it('ERROR (not judged: a technical failure) reopens the ceremony like FAIL once the transaction has taken it', () => {
    const s = captured('ERROR', ['analysis_error']);
    expect(stepOf(signingContext({ signerState: 'capture_accepted' }), s)).toBe('verifying');
    expect(stepOf(signingContext({ signerState: 'consent_accepted', attemptsLeft: 1 }), s)).toBe('challenge');
    // The page is told the recording was not judged, with nothing to do differently.
    expect(summarize(signingContext({ attemptsLeft: 1 }), s)).toMatchObject({ step: 'challenge', outcome: 'error', redo: [] });
    expect(summarize(signingContext(), captured('FAIL', ['words']))).toMatchObject({ outcome: 'fail', redo: ['words'] });
  });
});
