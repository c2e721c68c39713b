/**
 * Branding through the gateway (issue 34 item 4): an organisation's display name, colour, Reply-To
 * and logo (GET|PUT /api/admin/account/branding, PUT|DELETE …/branding/logo; dashboard sessions and
 * CSRF only). Each check is tried to be beaten: a colour white text cannot be read on, a bad Reply-To,
 * a display name with a line break, an SVG (by type and disguised as a PNG), a GIF, an image too big
 * — each a 4xx naming why, nothing changed. A logo is re-encoded (its text chunks gone) and served
 * publicly as image/png, nosniff; the signing page is given the branding and the signing-link mail
 * carries it (colour, logo, display name, Reply-To).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send, senderAccount } from '../support/ceremony-helpers.js';
import { tinyPdf } from '../fixtures/ceremony-media.js';
import { solidPng } from '../fixtures/documents.js';

const suffix = Math.random().toString(16).slice(2, 8);
const PATH = '/api/admin/account/branding';

/** A PNG of one colour (ffmpeg) with a tEXt chunk before IEND (which the re-encoding must drop). */
function pngWithText(w: number, h: number, text: string): Buffer {
  const out = solidPng('0xd02030', w, h);
  const data = Buffer.from(`tEXtComment\u0000${text}`, 'latin1');
  const chunk = Buffer.alloc(data.length + 8);
  chunk.writeUInt32BE(data.length - 4, 0);
  data.copy(chunk, 4);
  return Buffer.concat([out.subarray(0, out.length - 12), chunk, out.subarray(out.length - 12)]);
}

describe('an organisation’s branding', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;

  const csrf = async () => (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
  const get = async () => send(stack.gatewayUrl, 'GET', PATH, { token: acct.token });
  const put = async (json: unknown) => send(stack.gatewayUrl, 'PUT', `${PATH}?csrf=${await csrf()}`, { token: acct.token, json });
  const putLogo = async (data: Buffer, contentType: string) =>
    send(stack.gatewayUrl, 'PUT', `${PATH}/logo?csrf=${await csrf()}`, { token: acct.token, raw: { data, contentType } });

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: { BUCKET_DOCUMENTS: `brand-docs-${suffix}`, BUCKET_REFERENCES: `brand-refs-${suffix}` },
    });
    acct = await senderAccount(stack.gatewayUrl);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('starts empty; only a dashboard session with its CSRF token may change it', async () => {
    expect((await get()).body).toMatchObject({ display_name: '', color: '', reply_to: '', logo_url: null });
    expect((await send(stack.gatewayUrl, 'GET', PATH, { apiKey: acct.apiKey })).status).toBe(401);
    const noCsrf = await send(stack.gatewayUrl, 'PUT', PATH, { token: acct.token, json: { color: '#0b5cad' } });
    expect(noCsrf.status).toBe(403);
  });

  it('refuses each bad part with a 400 naming it, and changes nothing', async () => {
    const light = await put({ display_name: 'Acme', color: '#ffcc00' });
    expect(light.status).toBe(400);
    expect(light.body.detail).toMatch(
      /^color: white text on #ffcc00 has a contrast of 1\.\d+:1; WCAG AA needs 4\.5:1 — use a darker colour, e\.g\. #[0-9a-f]{6}$/,
    );
    for (const [body, field] of [
      [{ color: 'red' }, /^color: must be #rrggbb/],
      [{ reply_to: 'nobody' }, /^reply_to: /],
      [{ display_name: 'Acme\r\nBcc: x@y.z' }, /^display_name: /],
      [{ display_name: 'x'.repeat(101) }, /display_name/],
      [{ colour: '#000000' }, /colour/],
    ] as const) {
      const r = await put(body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.detail).toMatch(field);
    }
    expect((await get()).body).toMatchObject({ display_name: '', color: '', reply_to: '' });
  });

  it('refuses SVG, other types and oversized images; re-encodes a PNG and serves it publicly', async () => {
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>');
    expect((await putLogo(svg, 'image/svg+xml')).status).toBe(415);
    const disguised = await putLogo(svg, 'image/png');
    expect(disguised.status).toBe(400);
    expect(disguised.body.detail).toBe('logo: SVG is not accepted; upload a PNG or JPEG');
    expect((await putLogo(Buffer.from('GIF89a\u0001\u0000\u0001\u0000'), 'image/png')).body.detail).toMatch(/PNG or JPEG/);
    expect((await putLogo(Buffer.alloc(600 * 1024, 7), 'image/png')).status).toBe(413);
    expect((await putLogo(pngWithText(2000, 16, 'x'), 'image/png')).body.detail).toMatch(/at most 1024×1024/);
    expect((await get()).body.logo_url).toBeNull();

    const r = await putLogo(pngWithText(120, 40, '<script>alert(1)</script>'), 'image/png');
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ logo_width: 120, logo_height: 40 });
    expect(r.body.logo_url).toMatch(/^\/api\/branding\/logos\/[0-9a-f]{64}$/);
    const logo = await fetch(`${stack.gatewayUrl}${r.body.logo_url}`);
    expect(logo.status).toBe(200);
    expect(logo.headers.get('content-type')).toBe('image/png');
    expect(logo.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await logo.arrayBuffer());
    expect(bytes.includes(Buffer.from('script'))).toBe(false);
    expect(bytes.subarray(1, 4).toString()).toBe('PNG');
    expect([bytes.readUInt32BE(16), bytes.readUInt32BE(20)]).toEqual([120, 40]);
    expect((await fetch(`${stack.gatewayUrl}/api/branding/logos/${'0'.repeat(64)}`)).status).toBe(404);
    expect((await fetch(`${stack.gatewayUrl}/api/branding/logos/nothex`)).status).toBe(404);
  });

  it('applies to the signing page and the signing-link mail (colour, logo, display name, Reply-To)', async () => {
    const set = await put({ display_name: 'Acme <Legal>', color: '#1F4E79', reply_to: 'legal@acme.example' });
    expect(set.status).toBe(200);
    expect(set.body).toMatchObject({ display_name: 'Acme <Legal>', color: '#1f4e79', reply_to: 'legal@acme.example' });
    const logoUrl = set.body.logo_url as string;

    // The transaction service learns the branding from identity's event: the mail of a link created
    // after it has arrived is branded (a few creations at most while it travels).
    const mail = await eventually(
      async () => {
        const to = `brand-${randomBytes(4).toString('hex')}@example.com`;
        const r = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
          apiKey: acct.apiKey,
          parts: [
            { name: 'signers', value: JSON.stringify([{ name: 'Ada', email: to, verification: 'liveness_only' }]) },
            { name: 'document', filename: 'contract.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) },
          ],
        });
        expect(r.status).toBe(201);
        const page = await (await fetch(r.body.sign_url)).text();
        expect(page).toContain('<meta name="signet-brand-name" content="Acme &#60;Legal&#62;">');
        expect(page).toContain('<meta name="signet-brand-color" content="#1f4e79">');
        expect(page).toContain(`<meta name="signet-brand-logo" content="${logoUrl}">`);
        const found = await eventually(async () => {
          const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
          return ((await res.json()) as { messages: { ID: string }[] }).messages?.[0];
        }, 20_000);
        const m = (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${found.ID}`)).json()) as {
          Subject: string;
          HTML: string;
          ReplyTo: { Address: string }[];
        };
        return m.HTML.includes('#1f4e79') ? m : undefined;
      },
      30_000,
      1000,
    );
    expect(mail.Subject).toBe('Acme <Legal> asks you to sign "contract.pdf"');
    expect(mail.ReplyTo.map((a) => a.Address)).toEqual(['legal@acme.example']);
    expect(mail.HTML).toContain(`${logoUrl}"`);
    expect(mail.HTML).toContain('Acme &#60;Legal&#62;');
  });
});
