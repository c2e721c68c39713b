import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type AuthenticatorTransportFuture,
} from '@simplewebauthn/server';
import { noLiveChallenge } from '../domain/errors.js';
import { webauthnChallenge } from '../domain/webauthn.js';
import type { CredentialRepository } from '../store/credential.repository.js';
import type { WebauthnChallengeRepository } from '../store/webauthn-challenge.repository.js';
import type { CeremonyDeps } from './deps.js';
import { resolveSession, type ResolveDeps } from './resolve-session.js';

export type WebauthnOptions = { kind: 'registration' | 'authentication'; options: unknown };

/**
 * Options for the browser's WebAuthn call: registration for a signer without a credential,
 * authentication otherwise. The challenge commits to the document and the live ceremony nonce and
 * is kept pending (3 minutes) for the answer.
 */
export async function getWebauthnOptions(
  deps: ResolveDeps &
    Pick<CeremonyDeps, 'webauthn' | 'now'> & {
      credentials: Pick<CredentialRepository, 'credentialsOf'>;
      webauthnChallenges: Pick<WebauthnChallengeRepository, 'put'>;
    },
  token: string,
): Promise<WebauthnOptions> {
  const r = await resolveSession(deps, token);
  const ch = r.session.challenge;
  if (!ch || ch.expires_at.getTime() <= deps.now()) throw noLiveChallenge();
  const commit = webauthnChallenge(r.ctx.documentSha256, ch.nonce);
  const creds = await deps.credentials.credentialsOf(r.ctx.signerEmail);
  const rp = deps.webauthn;
  let kind: 'registration' | 'authentication';
  let options: unknown;
  if (creds.length === 0) {
    kind = 'registration';
    options = await generateRegistrationOptions({
      rpName: rp.rpName,
      rpID: rp.rpId,
      userName: r.ctx.signerEmail,
      userDisplayName: r.ctx.signerName,
      challenge: commit.bytes,
      attestationType: 'none',
      timeout: 120_000,
      authenticatorSelection: { residentKey: 'discouraged', userVerification: 'preferred' },
    });
  } else {
    kind = 'authentication';
    options = await generateAuthenticationOptions({
      rpID: rp.rpId,
      challenge: commit.bytes,
      timeout: 120_000,
      userVerification: 'preferred',
      allowCredentials: creds.map((c) => ({
        id: c.credential_id,
        transports: c.transports as AuthenticatorTransportFuture[],
      })),
    });
  }
  await deps.webauthnChallenges.put(r.session._id, { kind, challenge: commit.base64url, salt: commit.salt, nonce: ch.nonce });
  return { kind, options };
}
