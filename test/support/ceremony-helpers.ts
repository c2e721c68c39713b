/** A sender account, a transaction created through the API, and small HTTP helpers for ceremony tests. */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createAccount, type Account } from '../harness/accounts.js';
import { infra } from '../harness/services.js';
import { makePng, tinyPdf } from '../fixtures/ceremony-media.js';

export { send, type Reply } from './http.js';
import { send } from './http.js';

export type CreatedTx = { id: number; token: string; sign_url: string; signerEmail: string };

export async function senderAccount(gatewayUrl: string): Promise<Account> {
  return createAccount(gatewayUrl, infra().MAILPIT_URL, { orgName: 'Ceremony Test Ltd', tag: 'ceremony' });
}

/**
 * Creates a transaction through POST /api/transactions, and only there: any answer but 201 fails the
 * test. (It once fell back to the transaction service's gRPC CreateTransaction when the route answered
 * "the request was aborted" to a complete request, which hid that defect from every test using it;
 * issue 31 fixed the route and test/e2e/creation-door.test.ts holds it to a few hundred creations.)
 */
export async function createTransaction(
  gatewayUrl: string,
  acct: Account,
  signerName = 'Ada Lovelace',
  /** Ignored: creation goes through the gateway. Kept so that callers need not change. */
  _transactionAddr?: string,
  /** the signer's reference photo (JPEG); default a generated PNG test pattern */
  referenceJpeg?: Buffer,
  /**
   * The signer's required_assurance. The API's default is live; these helpers' callers drive the
   * single upload (GET …/challenge, POST …/capture), which proves only recorded, so they ask for that.
   */
  requiredAssurance: 'recorded' | 'live' | 'live+webauthn' = 'recorded',
): Promise<CreatedTx> {
  const dir = mkdtempSync(join(tmpdir(), 'signet-tx-'));
  const signerEmail = `signer-${randomBytes(4).toString('hex')}@example.com`;
  const document = tinyPdf(randomUUID());
  const reference = referenceJpeg ?? makePng(dir);
  const r = await send(gatewayUrl, 'POST', '/api/transactions', {
    headers: { 'x-api-key': acct.apiKey },
    parts: [
      { name: 'signer_name', value: signerName },
      { name: 'signer_email', value: signerEmail },
      { name: 'required_assurance', value: requiredAssurance },
      { name: 'document', filename: 'Employment contract.pdf', contentType: 'application/pdf', data: document },
      referenceJpeg
        ? { name: 'reference', filename: 'face.jpg', contentType: 'image/jpeg', data: reference }
        : { name: 'reference', filename: 'face.png', contentType: 'image/png', data: reference },
    ],
  });
  if (r.status !== 201) throw new Error(`create transaction → ${r.status} ${JSON.stringify(r.body)}`);
  return { ...(r.body as { id: number; token: string; sign_url: string }), signerEmail };
}

export async function transactionStatus(gatewayUrl: string, acct: Account, id: number): Promise<string> {
  const r = await send(gatewayUrl, 'GET', `/api/transactions/${id}`, { headers: { 'x-api-key': acct.apiKey } });
  if (r.status !== 200) throw new Error(`GET transaction → ${r.status}`);
  return (r.body as { status: string }).status;
}
