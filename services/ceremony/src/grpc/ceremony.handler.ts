import { invalid, isDuplicateKey, outboxEvent } from '@signet/kit';
import { eventsV1, type ceremonyV1 } from '@signet/proto';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type AuthenticatorTransportFuture,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { MAX_DRAWS_PER_ATTEMPT } from '../domain/challenge.js';
import { redoSteps } from '../domain/redo.js';
import { appendLive } from '../usecases/append-live.js';
import { issueChallenge } from '../usecases/issue-challenge.js';
import { startLive } from '../usecases/start-live.js';
import { attestationText, CONSENT_TEXT, CONSENT_TEXT_VERSION } from '../domain/attestation.js';
import { consentAlreadyRecorded, forensicLimit, noLiveChallenge, tooLarge } from '../domain/errors.js';
import { forensicBatchSchema, MAX_FORENSIC_BATCH_BYTES, MAX_FORENSIC_BATCHES } from '../domain/forensic.js';
import { webauthnChallenge, withWebauthn } from '../domain/webauthn.js';
import { conflict } from '@signet/kit';
import { resolve, stepOf, type CeremonyDeps, type Resolved } from './context.js';

export const CONSENT_SUBJECT = 'signet.ceremony.consent.accepted';
const WEBAUTHN_TTL_S = 180;

function summaryOf({ ctx, session }: Resolved): ceremonyV1.CeremonySummary {
  const last = session.captures.at(-1);
  const webauthnDone = !!session.webauthn && !!session.challenge && session.webauthn.nonce === session.challenge.nonce;
  return {
    signerName: ctx.signerName,
    issuerName: ctx.issuerName,
    documentName: ctx.documentName,
    documentSha256Prefix: ctx.documentSha256.slice(0, 16),
    attestationType: ctx.attestationType || 'signature',
    attestationText: attestationText(ctx.attestationType || 'signature', ctx.signerName, ctx.documentName),
    step: stepOf(ctx, session),
    attemptsLeft: ctx.attemptsLeft,
    webauthnOffered: true,
    outcome: last?.outcome ? last.outcome.toLowerCase() : '',
    consentTextVersion: CONSENT_TEXT_VERSION,
    consentText: CONSENT_TEXT,
    attempt: session.attempt,
    webauthnDone,
    verificationMode: last?.verification_mode ?? ctx.verificationMode,
    drawsLeft: Math.max(0, MAX_DRAWS_PER_ATTEMPT - session.draws),
    redo: last?.outcome === 'FAIL' ? redoSteps(last.failed_checks ?? []) : [],
  };
}

export function ceremonyHandlers(deps: CeremonyDeps) {
  const { sessions, counters } = deps;
  return {
    async getSummary(req: ceremonyV1.TokenRequest): Promise<ceremonyV1.CeremonySummary> {
      return summaryOf(await resolve(deps, req.token));
    },

    async recordConsent(req: ceremonyV1.ConsentRequest): Promise<ceremonyV1.CeremonySummary> {
      if (req.consentTextVersion !== CONSENT_TEXT_VERSION)
        throw invalid(`consent_text_version must be "${CONSENT_TEXT_VERSION}" (the text the page showed)`);
      const r = await resolve(deps, req.token);
      if (r.session.consent) {
        counters.consents.inc({ result: 'duplicate' });
        throw consentAlreadyRecorded();
      }
      const event = outboxEvent(CONSENT_SUBJECT, (m) =>
        eventsV1.ConsentAccepted.encode({
          eventId: m.event_id,
          occurredAt: m.occurred_at,
          transactionId: Number(r.ctx.transactionId),
          signerIndex: r.ctx.signerIndex,
        }).finish(),
      );
      const updated = await sessions.recordConsent(
        r.session._id,
        {
          text_version: req.consentTextVersion,
          at: new Date(),
          ip: req.ip.slice(0, 64),
          user_agent: req.userAgent.slice(0, 512),
        },
        event,
      );
      if (!updated) {
        counters.consents.inc({ result: 'duplicate' });
        throw consentAlreadyRecorded();
      }
      counters.consents.inc({ result: 'ok' });
      deps.relay.kick();
      return summaryOf({ ctx: r.ctx, session: updated });
    },

    issueChallenge: (req: ceremonyV1.TokenRequest) => issueChallenge(deps, req.token),
    startLive: (req: ceremonyV1.TokenRequest) => startLive(deps, req.token),
    appendLive: (req: ceremonyV1.LiveChunk) => appendLive(deps, req),

    async getWebauthnOptions(req: ceremonyV1.TokenRequest): Promise<ceremonyV1.WebauthnOptions> {
      const r = await resolve(deps, req.token);
      const ch = r.session.challenge;
      if (!ch || ch.expires_at.getTime() <= Date.now()) throw noLiveChallenge();
      const commit = webauthnChallenge(r.ctx.documentSha256, ch.nonce);
      const creds = await sessions.credentialsOf(r.ctx.signerEmail);
      const { cfg } = deps;
      let kind: 'registration' | 'authentication';
      let options: unknown;
      if (creds.length === 0) {
        kind = 'registration';
        options = await generateRegistrationOptions({
          rpName: cfg.WEBAUTHN_RP_NAME,
          rpID: cfg.WEBAUTHN_RP_ID,
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
          rpID: cfg.WEBAUTHN_RP_ID,
          challenge: commit.bytes,
          timeout: 120_000,
          userVerification: 'preferred',
          allowCredentials: creds.map((c) => ({
            id: c.credential_id,
            transports: c.transports as AuthenticatorTransportFuture[],
          })),
        });
      }
      await deps.redis.set(
        `ceremony:webauthn:${r.session._id}`,
        JSON.stringify({ kind, challenge: commit.base64url, salt: commit.salt, nonce: ch.nonce }),
        'EX',
        WEBAUTHN_TTL_S,
      );
      return { kind, optionsJson: JSON.stringify(options) };
    },

    async verifyWebauthn(req: ceremonyV1.WebauthnVerifyRequest): Promise<ceremonyV1.WebauthnResult> {
      let response: unknown;
      try {
        response = JSON.parse(req.responseJson);
      } catch {
        throw invalid('response must be the JSON the browser returned');
      }
      if (!response || typeof response !== 'object' || typeof (response as { id?: unknown }).id !== 'string')
        throw invalid('response must be a WebAuthn credential in JSON form');
      const r = await resolve(deps, req.token);
      const key = `ceremony:webauthn:${r.session._id}`;
      const raw = await deps.redis.getdel(key);
      if (!raw) throw conflict('no WebAuthn challenge is pending; request options first', 'NO_WEBAUTHN_CHALLENGE');
      const pending = JSON.parse(raw) as { kind: string; challenge: string; salt: string; nonce: string };
      if (r.session.challenge?.nonce !== pending.nonce) throw noLiveChallenge();
      const expect = {
        expectedChallenge: pending.challenge,
        expectedOrigin: deps.cfg.WEBAUTHN_ORIGIN,
        expectedRPID: deps.cfg.WEBAUTHN_RP_ID,
        requireUserVerification: false,
      };
      let verified = false;
      let credentialId = '';
      try {
        if (pending.kind === 'registration') {
          const v = await verifyRegistrationResponse({ response: response as RegistrationResponseJSON, ...expect });
          if (v.verified && v.registrationInfo) {
            const c = v.registrationInfo.credential;
            await sessions.addCredential({
              email: r.ctx.signerEmail,
              credential_id: c.id,
              public_key: Buffer.from(c.publicKey),
              counter: c.counter,
              transports: c.transports ?? [],
            });
            verified = true;
            credentialId = c.id;
          }
        } else {
          const resp = response as AuthenticationResponseJSON;
          const cred = (await sessions.credentialsOf(r.ctx.signerEmail)).find((c) => c.credential_id === resp.id);
          if (!cred) throw invalid('this credential is not registered for this signer');
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
          if (v.verified) {
            // A counter that does not advance (when the authenticator keeps one) suggests a cloned key.
            verified = await sessions.useCredential(cred.credential_id, cred.counter, v.authenticationInfo.newCounter);
            credentialId = cred.credential_id;
          }
        }
      } catch (err) {
        if (isDuplicateKey(err)) throw conflict('this credential is already registered', 'CREDENTIAL_EXISTS');
        if ((err as { name?: string }).name === 'DomainError') throw err;
        counters.webauthn.inc({ kind: pending.kind, result: 'rejected' });
        throw invalid(`WebAuthn response did not verify: ${(err as Error).message}`.slice(0, 300), 'WEBAUTHN_REJECTED');
      }
      if (!verified) {
        counters.webauthn.inc({ kind: pending.kind, result: 'rejected' });
        throw invalid('WebAuthn response did not verify', 'WEBAUTHN_REJECTED');
      }
      const stored = await sessions.setWebauthn(r.session._id, pending.nonce, {
        kind: pending.kind,
        credential_id: credentialId,
        nonce: pending.nonce,
        challenge: pending.challenge,
        verified_at: new Date(),
      });
      if (!stored) throw noLiveChallenge();
      counters.webauthn.inc({ kind: pending.kind, result: 'ok' });
      return { verified: true, kind: pending.kind, verificationMode: withWebauthn(r.ctx.verificationMode, true) };
    },

    async logForensic(req: ceremonyV1.ForensicBatch): Promise<ceremonyV1.ForensicReceipt> {
      if (Buffer.byteLength(req.batchJson) > MAX_FORENSIC_BATCH_BYTES) {
        counters.forensic.inc({ result: 'too_large' });
        throw tooLarge('forensic batch (64 KB at most)');
      }
      let json: unknown;
      try {
        json = JSON.parse(req.batchJson);
      } catch {
        throw invalid('forensic batch is not valid JSON');
      }
      const parsed = forensicBatchSchema.safeParse(json);
      if (!parsed.success) {
        counters.forensic.inc({ result: 'invalid' });
        const issue = parsed.error.issues[0]!;
        throw invalid(`forensic batch: ${issue.path.join('.') || 'body'}: ${issue.message}`);
      }
      const r = await resolve(deps, req.token);
      const batch = await sessions.takeForensicBatch(r.session._id, MAX_FORENSIC_BATCHES);
      if (batch === null) {
        counters.forensic.inc({ result: 'limit' });
        throw forensicLimit();
      }
      const receivedAt = new Date();
      await sessions.appendForensic({
        session_id: r.session._id,
        batch,
        received_at: receivedAt,
        ip: req.ip.slice(0, 64),
        user_agent: req.userAgent.slice(0, 512),
        events: parsed.data.events,
      });
      counters.forensic.inc({ result: 'ok' });
      return { batch, batchesLeft: MAX_FORENSIC_BATCHES - batch, receivedAt: receivedAt.toISOString() };
    },
  };
}
