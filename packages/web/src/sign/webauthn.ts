/** Minimal WebAuthn JSON <-> ArrayBuffer glue (no dependency): the server speaks the standard JSON forms. */
const b64uToBuf = (s: string): ArrayBuffer => {
  const b64 = s.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((s.length + 3) % 4);
  const bin = atob(b64);
  const out = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) out[i] = bin.charCodeAt(i);
  return out.buffer;
};
const bufToB64u = (b: ArrayBuffer): string => {
  let bin = '';
  for (const x of new Uint8Array(b)) bin += String.fromCharCode(x);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
};

export const webauthnSupported = () => typeof window.PublicKeyCredential === 'function' && !!navigator.credentials;

type Json = Record<string, any>;

export async function runWebauthn(kind: string, o: Json): Promise<Json> {
  if (kind === 'registration') {
    const publicKey: PublicKeyCredentialCreationOptions = {
      ...(o as PublicKeyCredentialCreationOptions),
      challenge: b64uToBuf(o.challenge),
      user: { ...o.user, id: b64uToBuf(o.user.id) },
      excludeCredentials: (o.excludeCredentials ?? []).map((c: Json) => ({ ...c, id: b64uToBuf(c.id) })),
    };
    const cred = (await navigator.credentials.create({ publicKey })) as PublicKeyCredential | null;
    if (!cred) throw new Error('no credential');
    const r = cred.response as AuthenticatorAttestationResponse;
    return {
      id: cred.id,
      rawId: bufToB64u(cred.rawId),
      type: cred.type,
      clientExtensionResults: cred.getClientExtensionResults(),
      authenticatorAttachment: cred.authenticatorAttachment ?? undefined,
      response: {
        clientDataJSON: bufToB64u(r.clientDataJSON),
        attestationObject: bufToB64u(r.attestationObject),
        transports: typeof r.getTransports === 'function' ? r.getTransports() : [],
      },
    };
  }
  const publicKey: PublicKeyCredentialRequestOptions = {
    ...(o as PublicKeyCredentialRequestOptions),
    challenge: b64uToBuf(o.challenge),
    allowCredentials: (o.allowCredentials ?? []).map((c: Json) => ({ ...c, id: b64uToBuf(c.id) })),
  };
  const cred = (await navigator.credentials.get({ publicKey })) as PublicKeyCredential | null;
  if (!cred) throw new Error('no credential');
  const r = cred.response as AuthenticatorAssertionResponse;
  return {
    id: cred.id,
    rawId: bufToB64u(cred.rawId),
    type: cred.type,
    clientExtensionResults: cred.getClientExtensionResults(),
    response: {
      clientDataJSON: bufToB64u(r.clientDataJSON),
      authenticatorData: bufToB64u(r.authenticatorData),
      signature: bufToB64u(r.signature),
      userHandle: r.userHandle ? bufToB64u(r.userHandle) : undefined,
    },
  };
}
