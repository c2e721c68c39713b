import { isDuplicateKey } from '@signet/kit';
import {
  generateRegistrationOptions,
  verifyRegistrationResponse,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import type { ClientInfo } from '../domain/audit.js';
import { passkeyExists, passkeyNotVerified, tooManyPasskeys, userNotFound, webauthnResponseInvalid } from '../domain/errors.js';
import { checkText } from '../domain/validate.js';
import { challengeKey, parseWebauthnResponse } from '../domain/webauthn-response.js';
import type { PasskeyRecord } from '../store/passkey.repository.js';
import { recordAudit } from './record-audit.js';
import type { SecurityDeps } from './security-deps.js';

export const MAX_PASSKEYS = 20;
export const PASSKEY_NAME_MAX = 64;

/** Creation options for a signed-in user's new passkey: discoverable when the authenticator can, none of theirs again. */
export async function startPasskeyRegistration(deps: SecurityDeps, userId: string): Promise<string> {
  const user = await deps.users.byId(userId);
  if (!user) throw userNotFound();
  const existing = await deps.passkeys.ofUser(userId);
  if (existing.length >= MAX_PASSKEYS) throw tooManyPasskeys(MAX_PASSKEYS);
  const options = await generateRegistrationOptions({
    rpName: deps.webauthn.rpName,
    rpID: deps.webauthn.rpId,
    userName: user.email,
    userDisplayName: user.name,
    userID: new TextEncoder().encode(user._id),
    attestationType: 'none',
    timeout: 120_000,
    excludeCredentials: existing.map((p) => ({
      id: p.credential_id,
      transports: p.transports as AuthenticatorTransportFuture[],
    })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'preferred' },
  });
  await deps.webauthnChallenges.put(challengeKey(options.challenge), { kind: 'registration', user_id: userId });
  return JSON.stringify(options);
}

/**
 * Verifies the browser's answer against the user's pending registration challenge (taken once,
 * whatever the outcome) and stores the credential under the name the user gave.
 */
export async function finishPasskeyRegistration(
  deps: SecurityDeps,
  input: { userId: string; name: string; responseJson: string; client: ClientInfo },
): Promise<PasskeyRecord> {
  const name = checkText(input.name || 'Passkey', 'name', PASSKEY_NAME_MAX);
  const parsed = parseWebauthnResponse(input.responseJson);
  if (!parsed) throw webauthnResponseInvalid();
  const user = await deps.users.byId(input.userId);
  if (!user) throw userNotFound();
  const pending = await deps.webauthnChallenges.take(challengeKey(parsed.challenge));
  if (!pending || pending.kind !== 'registration' || pending.user_id !== user._id)
    throw passkeyNotVerified('no pending registration of yours has this challenge');
  let info;
  try {
    const v = await verifyRegistrationResponse({
      response: parsed.response as unknown as RegistrationResponseJSON,
      expectedChallenge: parsed.challenge,
      expectedOrigin: deps.webauthn.origin,
      expectedRPID: deps.webauthn.rpId,
      requireUserVerification: false,
    });
    info = v.verified ? v.registrationInfo : undefined;
  } catch (err) {
    deps.securityMetrics.passkeys.inc({ action: 'register', result: 'rejected' });
    throw passkeyNotVerified((err as Error).message);
  }
  if (!info) throw passkeyNotVerified();
  const c = info.credential;
  let rec: PasskeyRecord;
  try {
    const row = { user_id: user._id, name, credential_id: c.id, public_key: Buffer.from(c.publicKey), counter: c.counter };
    rec = await deps.passkeys.add({ ...row, transports: c.transports ?? [] }, new Date(deps.now()));
  } catch (err) {
    if (isDuplicateKey(err)) throw passkeyExists();
    throw err;
  }
  deps.securityMetrics.passkeys.inc({ action: 'register', result: 'ok' });
  await recordAudit(deps, user, 'passkey.added', input.client, { target: rec._id, details: { name } });
  return rec;
}
