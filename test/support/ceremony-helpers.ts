/** A sender account, a transaction created through the API, and small HTTP helpers for ceremony tests. */
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createClient, Metrics } from '@signet/kit';
import { transactionV1 } from '@signet/proto';
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
 * Creates a transaction through POST /api/transactions. If the gateway's creation route answers
 * "the request was aborted" (a race in that route at the time of writing: it can take the
 * request's 'close' for an abort), the same creation goes through the transaction service's
 * client-streaming CreateTransaction instead, so the ceremony is still tested on a real transaction.
 */
export async function createTransaction(
  gatewayUrl: string,
  acct: Account,
  signerName = 'Ada Lovelace',
  transactionAddr?: string,
  /** the signer's reference photo (JPEG); default a generated PNG test pattern */
  referenceJpeg?: Buffer,
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
      { name: 'document', filename: 'Employment contract.pdf', contentType: 'application/pdf', data: document },
      referenceJpeg
        ? { name: 'reference', filename: 'face.jpg', contentType: 'image/jpeg', data: reference }
        : { name: 'reference', filename: 'face.png', contentType: 'image/png', data: reference },
    ],
  });
  if (r.status === 201 || r.status === 200)
    return { ...(r.body as { id: number; token: string; sign_url: string }), signerEmail };
  if (!(r.status === 400 && /aborted/.test(JSON.stringify(r.body)) && transactionAddr))
    throw new Error(`create transaction → ${r.status} ${JSON.stringify(r.body)}`);
  console.warn(
    'POST /api/transactions answered "the request was aborted"; creating the transaction through the transaction service instead',
  );
  const client = createClient(transactionV1.TransactionServiceClient, transactionAddr, { metrics: new Metrics('ceremony-test') });
  try {
    const res = await new Promise<transactionV1.CreateTransactionResult>((resolve, reject) => {
      const call = client.raw.createTransaction((err, out) => (err ? reject(err) : resolve(out!)));
      call.write({
        part: {
          $case: 'begin',
          value: transactionV1.CreateTransactionBegin.fromPartial({
            ownerId: acct.userId,
            orgName: acct.orgName,
            idempotencyKey: '',
          }),
        },
      });
      call.write({ part: { $case: 'document', value: document } });
      call.write({ part: { $case: 'reference', value: reference } });
      call.write({
        part: {
          $case: 'fields',
          value: transactionV1.CreateTransactionFields.fromPartial({
            signerName,
            signerEmail,
            signerEmails: [],
            attestationType: '',
            documentName: 'Employment contract.pdf',
            signers: [],
          }),
        },
      });
      call.end();
    });
    return { id: Number(res.id), token: res.token, sign_url: res.signUrl, signerEmail };
  } finally {
    client.close();
  }
}

export async function transactionStatus(gatewayUrl: string, acct: Account, id: number): Promise<string> {
  const r = await send(gatewayUrl, 'GET', `/api/transactions/${id}`, { headers: { 'x-api-key': acct.apiKey } });
  if (r.status !== 200) throw new Error(`GET transaction → ${r.status}`);
  return (r.body as { status: string }).status;
}
