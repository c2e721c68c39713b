/**
 * A software WebAuthn authenticator for end-to-end tests: an ES256 key pair from node:crypto, CBOR
 * from @simplewebauthn/server's helpers (the maintained encoder the server decodes with), and the
 * byte layouts of the WebAuthn spec. It answers the server's real options with real attestations
 * (fmt "none") and assertions, so the server's library verifies them as it would a browser's.
 */
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

const b64url = (b: Uint8Array | Buffer) => Buffer.from(b).toString('base64url');
const sha256 = (b: Uint8Array | string) => createHash('sha256').update(b).digest();

type CreationOptions = { challenge: string; rp: { id?: string }; user: { id: string } };
type RequestOptions = { challenge: string; rpId?: string; allowCredentials?: { id: string }[]; userVerification?: string };

export type SoftwareCredential = { id: Buffer; privateKey: KeyObject; x: Buffer; y: Buffer; userHandle: string; counter: number };

export function softwareAuthenticator(origin: string, opts: { userVerified?: boolean } = {}) {
  const uv = opts.userVerified ?? true;
  const flags = (attested: boolean) => 0x01 | (uv ? 0x04 : 0) | (attested ? 0x40 : 0);
  const counter = (n: number) => {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(n);
    return b;
  };
  const clientData = (type: string, challenge: string) =>
    Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));

  return {
    /** navigator.credentials.create: a new discoverable ES256 credential, answered with attestation "none". */
    create(options: CreationOptions): { credential: SoftwareCredential; response: Record<string, unknown> } {
      const { privateKey, publicKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
      const jwk = publicKey.export({ format: 'jwk' });
      const x = Buffer.from(jwk.x!, 'base64url');
      const y = Buffer.from(jwk.y!, 'base64url');
      const id = randomBytes(32);
      const cose = isoCBOR.encode(
        new Map<number, number | Uint8Array>([
          [1, 2],
          [3, -7],
          [-1, 1],
          [-2, new Uint8Array(x)],
          [-3, new Uint8Array(y)],
        ]),
      );
      const idLen = Buffer.alloc(2);
      idLen.writeUInt16BE(id.length);
      const rpId = options.rp.id ?? new URL(origin).hostname;
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flags(true)]), counter(0), Buffer.alloc(16), idLen, id, cose]);
      const attestationObject = isoCBOR.encode(
        new Map<string, unknown>([
          ['fmt', 'none'],
          ['attStmt', new Map()],
          ['authData', new Uint8Array(authData)],
        ]) as never,
      );
      const credential = { id, privateKey, x, y, userHandle: options.user.id, counter: 0 };
      const response = {
        id: b64url(id),
        rawId: b64url(id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(clientData('webauthn.create', options.challenge)),
          attestationObject: b64url(attestationObject),
          transports: ['internal'],
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
      return { credential, response };
    },

    /** navigator.credentials.get: an assertion by this credential over the options' challenge; the counter advances. */
    get(options: RequestOptions, cred: SoftwareCredential, o: { counter?: number; rpId?: string } = {}): Record<string, unknown> {
      cred.counter = o.counter ?? cred.counter + 1;
      const rpId = o.rpId ?? options.rpId ?? new URL(origin).hostname;
      const authData = Buffer.concat([sha256(rpId), Buffer.from([flags(false)]), counter(cred.counter)]);
      const cdj = clientData('webauthn.get', options.challenge);
      const signature = sign('sha256', Buffer.concat([authData, sha256(cdj)]), cred.privateKey);
      return {
        id: b64url(cred.id),
        rawId: b64url(cred.id),
        type: 'public-key',
        response: {
          clientDataJSON: b64url(cdj),
          authenticatorData: b64url(authData),
          signature: b64url(signature),
          userHandle: cred.userHandle,
        },
        clientExtensionResults: {},
        authenticatorAttachment: 'platform',
      };
    },
  };
}
