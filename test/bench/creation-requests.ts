/**
 * The transactions benchmark's requests to the gateway: funding a sender through the payment webhook,
 * and creating a transaction with a small document (fetch) or a large one streamed from disk (node:http).
 */
import { createHmac, randomBytes, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { createReadStream, createWriteStream, statSync } from 'node:fs';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Account } from '../harness/accounts.js';
import { multipart, pngPhoto } from '../../services/transaction/test/fixtures.js';

/**
 * Gives a sender `credits` through a signed pay-as-you-go payment on the webhook route. Billing learns
 * the user from identity's user.created event, so a payment it cannot match yet is sent again (a new
 * delivery) until it can.
 */
export async function fundAccount(gatewayUrl: string, webhookSecret: string, acct: Account, credits: number): Promise<void> {
  const body = JSON.stringify({
    business_id: 'bench',
    type: 'payment.succeeded',
    timestamp: new Date().toISOString(),
    data: {
      payload_type: 'Payment',
      payment_id: `pay_${randomUUID()}`,
      customer: { customer_id: 'cus_bench', email: acct.email, name: 'Bench' },
      metadata: { user_id: acct.userId, plan: 'payg' },
      subscription_id: null,
      product_cart: [{ product_id: 'prod_bench', quantity: Math.max(1, Math.ceil(credits / 1000)) }],
      total_amount: 1000,
      currency: 'USD',
    },
  });
  for (let i = 0; ; i++) {
    const id = `msg_${randomUUID()}`;
    const ts = String(Math.floor(Date.now() / 1000));
    const sig = createHmac('sha256', Buffer.from(webhookSecret.slice(6), 'base64'))
      .update(`${id}.${ts}.${body}`)
      .digest('base64');
    const res = await fetch(`${gatewayUrl}/api/webhooks/dodo`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': ts,
        'webhook-signature': `v1,${sig}`,
      },
      body,
    });
    const text = await res.text();
    if (res.ok && !/unmatched/.test(text)) return;
    if (i > 50) throw new Error(`credits webhook: ${res.status} ${text}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

export type DocumentPart = Parameters<typeof multipart>[0][number];

/** Creation requests by `acct`, each with one signer and the same small reference photo. */
export function creationRequests(gatewayUrl: string) {
  const photo = pngPhoto(64, 64);
  const signerEmail = () => `signer-${randomBytes(4).toString('hex')}@example.com`;

  /** One creation with `doc` as the document part, sent by fetch. */
  const create = async (doc: DocumentPart, acct: Account) => {
    const mp = multipart([
      { name: 'signer_name', value: 'Bench Signer' },
      { name: 'signer_email', value: signerEmail() },
      { name: 'reference', filename: 'face.png', contentType: 'image/png', data: photo },
      doc,
    ]);
    const res = await fetch(`${gatewayUrl}/api/transactions`, {
      method: 'POST',
      headers: { 'x-api-key': acct.apiKey, 'content-type': mp.contentType },
      body: mp.body as never,
      duplex: 'half',
    } as RequestInit);
    const text = await res.text();
    if (res.status !== 201) throw new Error(`creation: ${res.status} ${text}`);
    return JSON.parse(text) as { id: number };
  };

  /**
   * The large document as a browser or curl sends a form: one request with its Content-Length, the
   * file streamed from disk (node:http). BENCH_UPLOAD_CLIENT=fetch sends it with fetch and a streamed
   * (chunked) body instead, as sessions before 9 measured: that client alone spent about as much CPU
   * as the gateway, on the same two cores.
   */
  const createLarge = async (file: string, size: number, acct: Account) => {
    const boundary = `----signetbench${randomBytes(8).toString('hex')}`;
    const field = (name: string, value: string) =>
      `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
    const head = Buffer.concat([
      Buffer.from(field('signer_name', 'Bench Signer') + field('signer_email', signerEmail())),
      Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="reference"; filename="face.png"\r\nContent-Type: image/png\r\n\r\n`,
      ),
      photo,
      Buffer.from(
        `\r\n--${boundary}\r\nContent-Disposition: form-data; name="document"; filename="big.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
      ),
    ]);
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const u = new URL(`${gatewayUrl}/api/transactions`);
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(
        {
          host: u.hostname,
          port: u.port,
          path: u.pathname,
          method: 'POST',
          headers: {
            'x-api-key': acct.apiKey,
            'content-type': `multipart/form-data; boundary=${boundary}`,
            'content-length': String(head.length + size + tail.length),
          },
        },
        resolve,
      );
      req.on('error', reject);
      req.write(head);
      const body = createReadStream(file, { highWaterMark: 1024 * 1024 });
      body.on('error', reject);
      body.pipe(req, { end: false });
      body.on('end', () => req.end(tail));
    });
    let text = '';
    for await (const c of res) text += String(c);
    if (res.statusCode !== 201) throw new Error(`creation: ${res.statusCode} ${text}`);
    return JSON.parse(text) as { id: number };
  };

  /** The large document through fetch with a streamed, chunked body (BENCH_UPLOAD_CLIENT=fetch). */
  const createLargeByFetch = (file: string, acct: Account) =>
    create(
      {
        name: 'document',
        filename: 'big.pdf',
        contentType: 'application/pdf',
        data: async function* () {
          for await (const c of createReadStream(file, { highWaterMark: 1024 * 1024 })) yield c as Buffer;
        },
      },
      acct,
    );

  return { create, createLarge, createLargeByFetch };
}

/**
 * A PDF of about `mb` megabytes, mostly one stream of random bytes (a catalog, an empty page tree
 * and an xref table around it): the creation route parses every document with pdf-lib before it
 * accepts it (issue 31), so a header followed by noise would be refused. Returns its size.
 */
export async function writeRandomPdf(file: string, mb: number): Promise<number> {
  const w = createWriteStream(file);
  let at = 0;
  const offsets: number[] = [];
  const put = async (b: Buffer) => {
    at += b.length;
    if (!w.write(b)) await once(w, 'drain');
  };
  const padding = Math.max(0, mb * 1024 * 1024 - 512);
  await put(Buffer.from('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n', 'latin1'));
  offsets.push(at);
  await put(Buffer.from('1 0 obj\n<< /Type /Catalog /Pages 2 0 R /BenchPadding 3 0 R >>\nendobj\n'));
  offsets.push(at);
  await put(Buffer.from('2 0 obj\n<< /Type /Pages /Kids [] /Count 0 >>\nendobj\n'));
  offsets.push(at);
  await put(Buffer.from(`3 0 obj\n<< /Length ${padding} >>\nstream\n`));
  for (let left = padding; left > 0; left -= 1024 * 1024) await put(randomBytes(Math.min(left, 1024 * 1024)));
  await put(Buffer.from('\nendstream\nendobj\n'));
  const xref = at;
  const rows = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  await put(
    Buffer.from(`xref\n0 4\n0000000000 65535 f \n${rows}trailer\n<< /Size 4 /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`),
  );
  w.end();
  await once(w, 'finish');
  return statSync(file).size;
}

/** The mean of a gRPC histogram of one method in a service's /metrics text, with its count. */
export function grpcMean(metrics: string, name: string, method: string): string {
  const sum = new RegExp(`${name}_sum\\{[^}]*method="${method}"[^}]*\\} ([0-9.e+-]+)`).exec(metrics);
  const count = new RegExp(`${name}_count\\{[^}]*method="${method}"[^}]*\\} ([0-9.e+-]+)`).exec(metrics);
  return sum && count ? `${((Number(sum[1]) / Number(count[1])) * 1000).toFixed(1)} ms over ${count[1]} calls` : 'n/a';
}
