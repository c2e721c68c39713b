import { achievedAssurance, type AssuranceLevel } from '@signet/kit';
import type { Signer } from './transaction.js';

/**
 * The assurance a signer achieved (issue 30): set once the signer passed, from what the passing
 * capture's timing proved (live or recorded; test for a test-mode completion) and whether a WebAuthn
 * step was verified with it (live+webauthn). Undefined until the signer passed. The verified event,
 * the detail and webhook payloads all take it from here, so the certificate and the sender see the
 * same level.
 */
export function achievedSignerAssurance(
  s: Pick<Signer, 'state' | 'assurance' | 'webauthn_verified'>,
): AssuranceLevel | undefined {
  return s.state === 'passed' ? achievedAssurance(s.assurance, s.webauthn_verified) : undefined;
}
