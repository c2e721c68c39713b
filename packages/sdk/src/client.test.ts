import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignetClient, createTransaction, retryAfterSeconds, SignetError, transactions, unwrap } from './client.js';

/** A real HTTP server answering as the gateway would, to hold the thin layer to its promises. */
describe('the SDK’s hand-written layer', () => {
  let server: Server;
  let base = '';
  const seen: { method: string; url: string; key?: string; auth?: string }[] = [];
  let busy = 0;

  beforeAll(async () => {
    server = createServer((req, res) => {
      seen.push({ method: req.method!, url: req.url!, key: req.headers['x-api-key'] as string, auth: req.headers.authorization });
      const json = (status: number, body: unknown, headers: Record<string, string> = {}) => {
        res.writeHead(status, { 'content-type': 'application/json', ...headers });
        res.end(JSON.stringify(body));
      };
      if (req.url === '/api/transactions' && req.method === 'POST') {
        // Echo the multipart parts as the gateway would read them.
        const chunks: Buffer[] = [];
        req.on('data', (c: Buffer) => chunks.push(c));
        req.on('end', () => {
          void new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type']! } })
            .formData()
            .then(async (form) => {
              const parts: Record<string, string> = {};
              for (const [name, v] of form.entries())
                parts[name] = typeof v === 'string' ? v : `${v.name}:${Buffer.from(await v.arrayBuffer()).toString()}`;
              json(201, { id: 9, reference: 'SIG-TX-00000009', token: 't', sign_url: 'u', status: 'created', parts });
            });
        });
        return;
      }
      if (req.url === '/api/transactions/7/resend') {
        if (busy++ < 2) return json(429, { detail: 'too soon' }, { 'retry-after': '0' });
        return json(200, { id: 7 });
      }
      if (req.url === '/api/transactions/8/resend') return json(503, { detail: 'busy' }, { 'retry-after': '120' });
      if (req.url?.startsWith('/api/transactions?')) {
        const cursor = new URL(req.url, 'http://x').searchParams.get('cursor');
        if (!cursor) return json(200, [{ id: 3 }, { id: 2 }], { 'x-next-cursor': 'c1' });
        return json(200, [{ id: 1 }]);
      }
      json(404, { detail: 'no such transaction' });
    });
    server.listen(0, '127.0.0.1');
    await new Promise((r) => server.once('listening', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('creates with a signers list: the parties as JSON without their photos, each photo as signer_photo_<index>', async () => {
    const client = createSignetClient({ baseUrl: base, apiKey: 'sk_1' });
    const r = (await createTransaction(client, {
      signers: [
        { name: 'Ada', email: 'ada@example.com', photo: new Blob(['ada-photo']) },
        { name: 'Bob', email: 'bob@example.com', order: 2, verification: 'liveness_only' },
        { name: 'Vi', email: 'vi@example.com', role: 'viewer', order: 3 },
      ],
      document: new Blob(['%PDF-1.7']),
    })) as unknown as { parts: Record<string, string> };
    expect(JSON.parse(r.parts.signers!)).toEqual([
      { name: 'Ada', email: 'ada@example.com' },
      { name: 'Bob', email: 'bob@example.com', order: 2, verification: 'liveness_only' },
      { name: 'Vi', email: 'vi@example.com', role: 'viewer', order: 3 },
    ]);
    expect(r.parts).toMatchObject({ document: 'document.pdf:%PDF-1.7', signer_photo_0: 'signer-0.jpg:ada-photo' });
    expect(Object.keys(r.parts).sort()).toEqual(['document', 'signer_photo_0', 'signers']);
  });

  it('sends required_assurance: one field for the one-signer form, per party in the signers list', async () => {
    const client = createSignetClient({ baseUrl: base, apiKey: 'sk_1' });
    const one = (await createTransaction(client, {
      signer_name: 'Ada',
      signer_email: 'ada@example.com',
      required_assurance: 'recorded',
      document: new Blob(['%PDF-1.7']),
      reference: new Blob(['face']),
    })) as unknown as { parts: Record<string, string> };
    expect(one.parts.required_assurance).toBe('recorded');
    const listed = (await createTransaction(client, {
      signers: [{ name: 'Bob', email: 'bob@example.com', verification: 'liveness_only', required_assurance: 'live+webauthn' }],
      document: new Blob(['%PDF-1.7']),
    })) as unknown as { parts: Record<string, string> };
    expect(JSON.parse(listed.parts.signers!)[0].required_assurance).toBe('live+webauthn');
    expect(listed.parts.required_assurance).toBeUndefined();
  });

  it('sends the API key, and a session token as Bearer', async () => {
    await createSignetClient({ baseUrl: base, apiKey: 'sk_1' }).GET('/api/transactions/{id}', { params: { path: { id: '1' } } });
    await createSignetClient({ baseUrl: base, token: 'jwt' }).GET('/api/transactions/{id}', { params: { path: { id: '1' } } });
    expect(seen.slice(-2).map((s) => [s.key, s.auth])).toEqual([
      ['sk_1', undefined],
      [undefined, 'Bearer jwt'],
    ]);
  });

  it('errors are SignetError with the status and the detail', async () => {
    const client = createSignetClient({ baseUrl: base, apiKey: 'k' });
    const err = await unwrap(client.GET('/api/transactions/{id}', { params: { path: { id: '9' } } })).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SignetError);
    expect([(err as SignetError).status, (err as SignetError).detail]).toEqual([404, 'no such transaction']);
  });

  it('retries 429 after Retry-After, and gives up on a wait longer than allowed', async () => {
    const client = createSignetClient({ baseUrl: base, apiKey: 'k', retries: 2 });
    expect(await unwrap(client.POST('/api/transactions/{id}/resend', { params: { path: { id: '7' } } }))).toEqual({ id: 7 });
    expect(seen.filter((s) => s.url === '/api/transactions/7/resend')).toHaveLength(3);
    const err = await unwrap(client.POST('/api/transactions/{id}/resend', { params: { path: { id: '8' } } })).catch(
      (e: unknown) => e,
    );
    expect([(err as SignetError).status, (err as SignetError).retryAfterSeconds]).toEqual([503, 120]);
  });

  it('pages through the list by X-Next-Cursor', async () => {
    const ids: number[] = [];
    for await (const t of transactions(createSignetClient({ baseUrl: base, apiKey: 'k' }), { limit: 2 })) ids.push(t.id);
    expect(ids).toEqual([3, 2, 1]);
  });

  it('reads Retry-After as seconds or as a date', () => {
    expect(retryAfterSeconds('5')).toBe(5);
    expect(retryAfterSeconds(new Date(Date.now() + 10_000).toUTCString())).toBeGreaterThanOrEqual(9);
    expect(retryAfterSeconds(null)).toBeUndefined();
  });
});
