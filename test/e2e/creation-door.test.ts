/**
 * The creation route's door (issue 31, items 4–6), through the gateway only, on real identity,
 * billing, transaction, MinIO, FerretDB and Mailpit:
 * - a document the ledger's sealer (pdf-lib) cannot open is refused with a 400 naming the reason,
 *   with no quota used and nothing listed (what the buckets hold after it:
 *   services/transaction/test/gateway-uploads-at-rest.int.test.ts);
 * - file names are UTF-8 (`filename` and RFC 5987 `filename*`) in the detail view and the signer's mail;
 * - a complete request is never answered "the request was aborted", under a few hundred creations
 *   sequential and concurrent; a client that goes away mid-upload leaves nothing.
 */
import { randomBytes } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { encryptedPdf, onePagePdf } from '../fixtures/pdfs.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

const suffix = randomBytes(3).toString('hex');
const BUCKETS = { BUCKET_DOCUMENTS: `door-docs-${suffix}`, BUCKET_REFERENCES: `door-refs-${suffix}` };

describe('POST /api/transactions: documents at the door', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let gw: string;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], { env: BUCKETS });
    gw = stack.gatewayUrl;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const email = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
  const form = (document: Buffer, filename = 'contract.pdf', signerEmail = email('ada')): Part[] => [
    { name: 'signer_name', value: 'Ada Lovelace' },
    { name: 'signer_email', value: signerEmail },
    { name: 'document', data: document, filename, contentType: 'application/pdf' },
    { name: 'reference', data: pngPhoto(), filename: 'face.png', contentType: 'image/png' },
  ];
  const create = (key: string, parts: Part[]) => send(gw, 'POST', '/api/transactions', { apiKey: key, parts });
  const used = async (key: string) => (await send(gw, 'POST', '/api/auth/me', { apiKey: key })).body.monthly_used as number;
  const listed = async (key: string) =>
    ((await send(gw, 'GET', '/api/transactions?limit=200', { apiKey: key })).body as unknown[]).length;

  async function testKey(acct: Account): Promise<string> {
    const csrf = (await send(gw, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
    const r = await send(gw, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: acct.token,
      json: { name: 'door', mode: 'test' },
    });
    expect(r.status, r.text).toBe(201);
    return r.body.key as string;
  }

  it('refuses a document the sealer cannot open with a 400 naming the reason; no quota used, nothing listed', async () => {
    const acct = await createAccount(gw, infra().MAILPIT_URL, { tag: 'door' });
    const pdf = onePagePdf('door');
    const cases: [string, Buffer, RegExp][] = [
      ['%PDF-xxxx', Buffer.from('%PDF-xxxx\n1 0 obj<</Type/Catalog>>endobj\n%%EOF\n'), /^document: .*no version number/],
      ['a PDF cut to 100 bytes', pdf.subarray(0, 100), /^document: is damaged or truncated/],
      ['a PDF encrypted with a password', encryptedPdf(pdf, 'user-secret'), /^document: is encrypted/],
      ['a PDF encrypted without a user password (opens, but restricted)', encryptedPdf(pdf, ''), /^document: is encrypted/],
    ];
    for (const [name, document, detail] of cases) {
      const r = await create(acct.apiKey, form(document));
      expect(r.status, `${name}: ${r.text}`).toBe(400);
      expect(r.body.detail, name).toMatch(detail);
    }
    expect(await used(acct.apiKey)).toBe(0);
    expect(await listed(acct.apiKey)).toBe(0);
    // The same account creates with the well-formed PDF: the door lets real documents through, and counts them.
    const ok = await create(acct.apiKey, form(pdf));
    expect(ok.status, ok.text).toBe(201);
    expect(await used(acct.apiKey)).toBe(1);
  });

  /** A form whose document part carries `disposition` as written (raw bytes, UTF-8). */
  function rawForm(disposition: string, signerEmail: string): { data: Buffer; contentType: string } {
    const b = `----door${randomBytes(8).toString('hex')}`;
    const field = (n: string, v: string) => `--${b}\r\nContent-Disposition: form-data; name="${n}"\r\n\r\n${v}\r\n`;
    return {
      contentType: `multipart/form-data; boundary=${b}`,
      data: Buffer.concat([
        Buffer.from(field('signer_name', 'Ada Lovelace') + field('signer_email', signerEmail)),
        Buffer.from(
          `--${b}\r\nContent-Disposition: form-data; name="document"; ${disposition}\r\nContent-Type: application/pdf\r\n\r\n`,
        ),
        onePagePdf('names'),
        Buffer.from(
          `\r\n--${b}\r\nContent-Disposition: form-data; name="reference"; filename="f.png"\r\nContent-Type: image/png\r\n\r\n`,
        ),
        pngPhoto(),
        Buffer.from(`\r\n--${b}--\r\n`),
      ]),
    };
  }

  it('keeps UTF-8 file names (filename and filename*) in several scripts: the detail view and the signer’s mail show them', async () => {
    const key = await testKey(await createAccount(gw, infra().MAILPIT_URL, { tag: 'names' }));
    const names = [
      'Umowa Łódź 合同.pdf',
      '劳动合同（最终版）.pdf',
      'عقد العمل.pdf',
      'Договор аренды №7.pdf',
      'Contract ✍️ 🇵🇱 signed.pdf',
    ];
    const dispositions: [string, string][] = names.flatMap((n): [string, string][] => [
      [`filename="${n}"`, n],
      // RFC 6266: filename* (RFC 5987, UTF-8, percent-encoded) wins over the ASCII fallback.
      [`filename="fallback.pdf"; filename*=UTF-8''${encodeURIComponent(n)}`, n],
    ]);
    // Decomposed (as macOS file names arrive): kept in composed form.
    dispositions.push([`filename="${'Łódź.pdf'.normalize('NFD')}"`, 'Łódź.pdf']);
    for (const [disposition, expected] of dispositions) {
      const to = email('names');
      const r = await send(gw, 'POST', '/api/transactions', { apiKey: key, raw: rawForm(disposition, to) });
      expect(r.status, r.text).toBe(201);
      const detail = await send(gw, 'GET', `/api/transactions/${r.body.id}`, { apiKey: key });
      expect(detail.body.document_name, disposition).toBe(expected);
      const mail = await eventually(async () => {
        const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
        return ((await res.json()) as { messages?: { Subject: string }[] }).messages?.[0];
      });
      expect(mail.Subject).toContain(`"${expected}"`);
    }
  });

  it('never answers "aborted" to a complete request: 150 sequential and 150 concurrent creations all 201', async () => {
    // Test keys: free; each account may create 120 a minute, so three share the load.
    const keys = await Promise.all(
      [0, 1, 2].map(async (i) => testKey(await createAccount(gw, infra().MAILPIT_URL, { tag: `stress${i}` }))),
    );
    const statuses = new Map<string, number>();
    const count = (status: number, text: string) => {
      const k = status === 201 ? '201' : `${status} ${text}`;
      statuses.set(k, (statuses.get(k) ?? 0) + 1);
    };
    // Both framings clients use: a streamed body (chunked, as the tests' helper sends) and a FormData
    // of Blobs (Content-Length, as browsers and the SDK send).
    const one = async (key: string, i = 0) => {
      if (i % 2 === 0) {
        const r = await create(key, form(tinyPdf(randomBytes(8).toString('hex'))));
        return count(r.status, r.text);
      }
      const fd = new FormData();
      fd.set('signer_name', 'Ada Lovelace');
      fd.set('signer_email', email('form'));
      fd.set(
        'document',
        new Blob([new Uint8Array(onePagePdf(randomBytes(8).toString('hex')))], { type: 'application/pdf' }),
        'c.pdf',
      );
      fd.set('reference', new Blob([new Uint8Array(pngPhoto())], { type: 'image/png' }), 'face.png');
      const r = await fetch(`${gw}/api/transactions`, { method: 'POST', headers: { 'x-api-key': key }, body: fd });
      count(r.status, await r.text());
    };
    for (let i = 0; i < 150; i++) await one(keys[i % 3]!, i);
    let next = 0;
    await Promise.all(
      Array.from({ length: 25 }, async () => {
        while (next < 150) {
          const i = next++;
          await one(keys[i % 3]!, i);
        }
      }),
    );
    expect(Object.fromEntries(statuses)).toEqual({ '201': 300 });
    // Each key created exactly its hundred: no request was answered one way and done another.
    expect(await Promise.all(keys.map((k) => listed(k)))).toEqual([100, 100, 100]);
  }, 240_000);

  it('a client that goes away mid-upload gets no transaction and uses no quota', async () => {
    const acct = await createAccount(gw, infra().MAILPIT_URL, { tag: 'gone' });
    const b = `----gone${randomBytes(8).toString('hex')}`;
    const head = Buffer.from(
      `--${b}\r\nContent-Disposition: form-data; name="signer_name"\r\n\r\nAda\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="signer_email"\r\n\r\n${email('gone')}\r\n` +
        `--${b}\r\nContent-Disposition: form-data; name="document"; filename="c.pdf"\r\nContent-Type: application/pdf\r\n\r\n`,
    );
    const u = new URL(gw);
    for (let i = 0; i < 5; i++) {
      await new Promise<void>((resolve) => {
        const req = httpRequest({
          host: u.hostname,
          port: u.port,
          path: '/api/transactions',
          method: 'POST',
          headers: {
            'x-api-key': acct.apiKey,
            'content-type': `multipart/form-data; boundary=${b}`,
            'content-length': String(head.length + 8 * 1024 * 1024),
          },
        });
        req.on('error', () => resolve());
        req.on('close', () => resolve());
        req.write(head);
        // 6 MB of a declared 8 MB document: past the first stored part, then the client is gone.
        req.write(Buffer.concat([onePagePdf('gone'), Buffer.alloc(6 * 1024 * 1024, 0x20)]), () =>
          setTimeout(() => req.destroy(), 200),
        );
      });
    }
    await new Promise((r) => setTimeout(r, 1000));
    expect(await listed(acct.apiKey)).toBe(0);
    expect(await used(acct.apiKey)).toBe(0);
  });
});
