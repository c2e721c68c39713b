import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type AuthenticatorTransportFuture,
} from '@simplewebauthn/server';
import type { ChallengeRecord } from '../domain/challenge.js';
import { webauthnChallenge } from '../domain/webauthn.js';
import type { CredentialRepository } from '../store/credential.repository.js';
import type { WebauthnChallengeRepository } from '../store/webauthn-challenge.repository.js';
import type { CeremonyDeps } from './deps.js';
import { drawChallenge, type DrawDeps } from './draw-challenge.js';
import { resolveSession } from './resolve-session.js';

export type WebauthnOptions = { kind: 'registration' | 'authentication'; options: unknown };

type OptionsDeps = DrawDeps &
  Pick<CeremonyDeps, 'webauthn'> & {
    credentials: Pick<CredentialRepository, 'credentialsOf'>;
    webauthnChallenges: Pick<WebauthnChallengeRepository, 'put'>;
  };

/**
 * Options for the browser's WebAuthn call: registration for a signer without a credential,
 * authentication otherwise. The challenge commits to the document and the ceremony nonce of the
 * recording to come, and is kept pending (3 minutes) for the answer.
 *
 * WebAuthn comes before the recording (the page asks first, then starts the live stream): the
 * nonce is the current challenge's while it can still take a capture and its stream has not begun
 * (or it is a single-upload one); otherwise a live challenge is drawn now, revealing nothing but its
 * nonce, and the live start serves it with its clock restarted. A stream already begun is never
 * the one confirmed: it was interrupted, or it runs while its 2 minutes do.
 */
const confirmable = (c: ChallengeRecord, now: number) =>
  c.expires_at.getTime() > now && !(c.mode === 'live' && c.live_started_at);

export async function getWebauthnOptions(deps: OptionsDeps, token: string): Promise<WebauthnOptions> {
  const r = await resolveSession(deps, token);
  const current = r.session.challenge;
  const ch = current && confirmable(current, deps.now()) ? current : (await drawChallenge(deps, token, 'live')).challenge;
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
