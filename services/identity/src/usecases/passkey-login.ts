import {
  generateAuthenticationOptions,
  verifyAuthenticationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
} from '@simplewebauthn/server';
import type { ClientInfo } from '../domain/audit.js';
import { challengeInvalid, passkeyLoginFailed, webauthnResponseInvalid } from '../domain/errors.js';
import { sha256 } from '../domain/secrets.js';
import { challengeKey, parseWebauthnResponse } from '../domain/webauthn-response.js';
import { publicKeyBytes, type PasskeyRecord } from '../store/passkey.repository.js';
import type { PendingWebauthn } from '../store/webauthn-challenge.repository.js';
import { issueSession, type IssuedSession } from './issue-session.js';
import { recordAudit } from './record-audit.js';
import type { SecurityDeps } from './security-deps.js';

/**
 * Request options for a passkey sign-in. With a second-factor challenge (after the password): that
 * user's passkeys. Without: a discoverable sign-in by the passkey alone, which must verify the user
 * (PIN or biometric), since it replaces both factors.
 */
export async function startPasskeyLogin(deps: SecurityDeps, input: { challenge: string }): Promise<string> {
  let pending: PendingWebauthn = { kind: 'login', user_id: null, mfa_challenge_id: null, user_verification: true };
  let allow: PasskeyRecord[] = [];
  if (input.challenge) {
    const mfaId = sha256(input.challenge);
    const userId = await deps.mfaChallenges.userId(mfaId);
    allow = userId ? await deps.passkeys.ofUser(userId) : [];
    if (!userId || allow.length === 0) throw challengeInvalid();
    pending = { kind: 'login', user_id: userId, mfa_challenge_id: mfaId, user_verification: false };
  }
  const options = await generateAuthenticationOptions({
    rpID: deps.webauthn.rpId,
    timeout: 120_000,
    userVerification: pending.user_verification ? 'required' : 'preferred',
    allowCredentials: allow.map((p) => ({ id: p.credential_id, transports: p.transports as AuthenticatorTransportFuture[] })),
  });
  await deps.webauthnChallenges.put(challengeKey(options.challenge), pending);
  return JSON.stringify(options);
}

/**
 * Verifies an assertion against its pending challenge (taken once) and the stored credential, with
 * the library's counter check (a counter that does not advance suggests a cloned authenticator),
 * then opens a session. Every failure is the same 401, audited on the credential's account.
 */
export async function finishPasskeyLogin(
  deps: SecurityDeps,
  input: { challenge: string; responseJson: string; client: ClientInfo },
): Promise<IssuedSession> {
  const parsed = parseWebauthnResponse(input.responseJson);
  if (!parsed) throw webauthnResponseInvalid();
  const pending = await deps.webauthnChallenges.take(challengeKey(parsed.challenge));
  const passkey = await deps.passkeys.byCredentialId(parsed.id);
  const user = passkey ? await deps.users.byId(passkey.user_id) : null;
  const fail = async (reason: string): Promise<never> => {
    deps.metrics.logins.inc({ result: 'passkey_failed' });
    deps.securityMetrics.passkeys.inc({ action: 'login', result: reason });
    if (user) await recordAudit(deps, user, 'auth.login.failed', input.client, { details: { method: 'passkey', reason } });
    throw passkeyLoginFailed();
  };
  if (!pending || pending.kind !== 'login') return fail('no_challenge');
  if (!passkey || !user) return fail('unknown_credential');
  if (pending.user_id && pending.user_id !== user._id) return fail('other_user');
  // After a password: the second-factor challenge must still be live, the one the options were made for.
  if (pending.mfa_challenge_id && (input.challenge ? sha256(input.challenge) : '') !== pending.mfa_challenge_id)
    return fail('no_challenge');
  let v: Awaited<ReturnType<typeof verifyAuthenticationResponse>> | null;
  try {
    v = await verifyAuthenticationResponse({
      response: parsed.response as unknown as AuthenticationResponseJSON,
      expectedChallenge: parsed.challenge,
      expectedOrigin: deps.webauthn.origin,
      expectedRPID: deps.webauthn.rpId,
      requireUserVerification: pending.user_verification,
      credential: {
        id: passkey.credential_id,
        publicKey: publicKeyBytes(passkey.public_key),
        counter: passkey.counter,
        transports: passkey.transports as AuthenticatorTransportFuture[],
      },
    });
  } catch {
    v = null;
  }
  if (!v?.verified) return fail('not_verified');
  const newCounter = v.authenticationInfo.newCounter;
  if (!(await deps.passkeys.use(passkey._id, passkey.counter, newCounter, new Date(deps.now())))) return fail('counter_raced');
  if (pending.mfa_challenge_id && !(await deps.mfaChallenges.remove(pending.mfa_challenge_id))) return fail('no_challenge');
  deps.metrics.logins.inc({ result: 'ok' });
  deps.securityMetrics.passkeys.inc({ action: 'login', result: 'ok' });
  await recordAudit(deps, user, 'auth.login.succeeded', input.client, {
    target: passkey._id,
    details: { method: pending.mfa_challenge_id ? 'password+passkey' : 'passkey' },
  });
  return issueSession(deps, user);
}
