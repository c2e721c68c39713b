import { isDuplicateKey } from '@signet/kit';
import {
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import {
  credentialExists,
  credentialNotRegistered,
  noLiveChallenge,
  noWebauthnChallenge,
  webauthnRejected,
  webauthnResponseNotJson,
  webauthnResponseShape,
} from '../domain/errors.js';
import { withWebauthn } from '../domain/webauthn.js';
import type { CredentialRepository } from '../store/credential.repository.js';
import type { SessionRepository } from '../store/session.repository.js';
import type { PendingWebauthn, WebauthnChallengeRepository } from '../store/webauthn-challenge.repository.js';
import type { CeremonyDeps } from './deps.js';
import { resolveSession, type ResolveDeps } from './resolve-session.js';

export type WebauthnVerified = { verified: true; kind: string; verificationMode: string };
type VerifyDeps = ResolveDeps &
  Pick<CeremonyDeps, 'webauthn' | 'metrics' | 'now'> & {
    sessions: Pick<SessionRepository, 'ensure' | 'setWebauthn'>;
    credentials: Pick<CredentialRepository, 'credentialsOf' | 'addCredential' | 'useCredential'>;
    webauthnChallenges: Pick<WebauthnChallengeRepository, 'take'>;
  };

/**
 * Checks the browser's answer against the pending challenge (taken once), registers or uses the
 * credential, and binds the verified step to the live ceremony nonce: a capture of that challenge
 * then carries `<mode>+webauthn`.
 */
export async function verifyWebauthn(
  deps: VerifyDeps,
  input: { token: string; responseJson: string },
): Promise<WebauthnVerified> {
  let response: unknown;
  try {
    response = JSON.parse(input.responseJson);
  } catch {
    throw webauthnResponseNotJson();
  }
  if (!response || typeof response !== 'object' || typeof (response as { id?: unknown }).id !== 'string')
    throw webauthnResponseShape();
  const r = await resolveSession(deps, input.token);
  const pending = await deps.webauthnChallenges.take(r.session._id);
  if (!pending) throw noWebauthnChallenge();
  if (r.session.challenge?.nonce !== pending.nonce) throw noLiveChallenge();
  let credentialId: string | null;
  try {
    credentialId = await check(deps, r.ctx.signerEmail, pending, response);
  } catch (err) {
    if (isDuplicateKey(err)) throw credentialExists();
    if ((err as { name?: string }).name === 'DomainError') throw err;
    deps.metrics.webauthn.inc({ kind: pending.kind, result: 'rejected' });
    throw webauthnRejected(`${(err as Error).message}`);
  }
  if (credentialId === null) {
    deps.metrics.webauthn.inc({ kind: pending.kind, result: 'rejected' });
    throw webauthnRejected();
  }
  const stored = await deps.sessions.setWebauthn(r.session._id, pending.nonce, {
    kind: pending.kind,
    credential_id: credentialId,
    nonce: pending.nonce,
    challenge: pending.challenge,
    verified_at: new Date(deps.now()),
  });
  if (!stored) throw noLiveChallenge();
  deps.metrics.webauthn.inc({ kind: pending.kind, result: 'ok' });
  return { verified: true, kind: pending.kind, verificationMode: withWebauthn(r.ctx.verificationMode, true) };
}

/** The credential the response proves (registered now, or used with an advancing counter); null if it does not verify. */
async function check(deps: VerifyDeps, email: string, pending: PendingWebauthn, response: unknown): Promise<string | null> {
  const expect = {
    expectedChallenge: pending.challenge,
    expectedOrigin: deps.webauthn.origin,
    expectedRPID: deps.webauthn.rpId,
    requireUserVerification: false,
  };
  if (pending.kind === 'registration') {
    const v = await verifyRegistrationResponse({ response: response as RegistrationResponseJSON, ...expect });
    if (!v.verified || !v.registrationInfo) return null;
    const c = v.registrationInfo.credential;
    await deps.credentials.addCredential({
      email,
      credential_id: c.id,
      public_key: Buffer.from(c.publicKey),
      counter: c.counter,
      transports: c.transports ?? [],
    });
    return c.id;
  }
  const resp = response as AuthenticationResponseJSON;
  const cred = (await deps.credentials.credentialsOf(email)).find((c) => c.credential_id === resp.id);
  if (!cred) throw credentialNotRegistered();
  const v = await verifyAuthenticationResponse({
    response: resp,
    ...expect,
    credential: {
      id: cred.credential_id,
      publicKey: new Uint8Array(cred.public_key),
      counter: cred.counter,
      transports: cred.transports as AuthenticatorTransportFuture[],
    },
  });
  if (!v.verified) return null;
  // A counter that does not advance (when the authenticator keeps one) suggests a cloned key.
  return (await deps.credentials.useCredential(cred.credential_id, cred.counter, v.authenticationInfo.newCounter))
    ? cred.credential_id
    : null;
}
