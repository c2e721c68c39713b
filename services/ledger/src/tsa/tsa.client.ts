/**
 * RFC 3161 client (pkijs): a TimeStampReq over SHA-256 of the data with a random nonce and the TSA's
 * certificate requested, POSTed to each configured authority in order until one grants a token
 * whose imprint and nonce match. Throws TsaUnavailableError when none does (sealing waits).
 */
import { createHash, randomBytes } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { Timestamper } from '../pdf/cades-signer.js';

const SHA256 = '2.16.840.1.101.3.4.2.1';

export class TsaUnavailableError extends Error {
  constructor(readonly failures: string[]) {
    super(`no time-stamping authority answered: ${failures.join('; ')}`);
  }
}

async function askOne(url: string, data: Uint8Array, timeoutMs: number): Promise<Uint8Array> {
  const digest = createHash('sha256').update(data).digest();
  const nonce = randomBytes(8);
  nonce[0] = (nonce[0]! & 0x7f) | 0x01; // a positive INTEGER, minimally encoded as is
  const req = new pkijs.TimeStampReq({
    version: 1,
    messageImprint: new pkijs.MessageImprint({
      hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
      hashedMessage: new asn1js.OctetString({ valueHex: digest }),
    }),
    nonce: new asn1js.Integer({ valueHex: nonce }),
    certReq: true,
  });
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/timestamp-query' },
    body: Buffer.from(req.toSchema().toBER()),
    signal: AbortSignal.timeout(timeoutMs),
  });
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  const resp = pkijs.TimeStampResp.fromBER(new Uint8Array(await res.arrayBuffer()));
  if (resp.status.status > 1 || !resp.timeStampToken) throw new Error(`refused (status ${resp.status.status})`);
  const signed = new pkijs.SignedData({ schema: resp.timeStampToken.content });
  const tst = pkijs.TSTInfo.fromBER(signed.encapContentInfo.eContent!.getValue());
  const imprint = Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView);
  if (tst.messageImprint.hashAlgorithm.algorithmId !== SHA256 || !imprint.equals(digest)) throw new Error('token for other data');
  if (!tst.nonce || !Buffer.from(tst.nonce.valueBlock.valueHexView).equals(nonce)) throw new Error('token with another nonce');
  return new Uint8Array(resp.timeStampToken.toSchema().toBER());
}

/** A Timestamper over the configured authorities, tried in order. */
export function createTsaClient(urls: string[], opts: { timeoutMs?: number } = {}): Timestamper {
  return async (data) => {
    const failures: string[] = [];
    for (const url of urls) {
      try {
        return await askOne(url, data, opts.timeoutMs ?? 10_000);
      } catch (err) {
        failures.push(`${new URL(url).host}: ${(err as Error).message}`);
      }
    }
    throw new TsaUnavailableError(failures);
  };
}
