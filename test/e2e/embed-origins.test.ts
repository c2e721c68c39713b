/**
 * Embedded signing through the gateway (issue 34 item 6): an account's embedding origins
 * (GET|PUT /api/admin/account/embed-origins, dashboard sessions only, CSRF on the change) are
 * checked strictly — a bad list is a 400 naming the origin and changes nothing — and the signing page
 * of the account's links sends `frame-ancestors` with exactly that list ('none' without one, for a
 * link of another account, and for a link that does not resolve), and gives the page the same list.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../harness/accounts.js';
import { startServices } from '../harness/services.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../support/ceremony-helpers.js';

const suffix = Math.random().toString(16).slice(2, 8);
const PATH = '/api/admin/account/embed-origins';

describe('embedding origins and the signing page’s frame-ancestors', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let a: Account;
  let b: Account;
  let txA: CreatedTx;
  let txB: CreatedTx;

  const csrfOf = async (acct: Account) =>
    (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
  const put = async (acct: Account, json: unknown) =>
    send(stack.gatewayUrl, 'PUT', `${PATH}?csrf=${encodeURIComponent(await csrfOf(acct))}`, { token: acct.token, json });
  const get = async (acct: Account) => (await send(stack.gatewayUrl, 'GET', PATH, { token: acct.token })).body.origins;
  const signPage = async (url: string) => {
    const res = await fetch(url);
    return { status: res.status, csp: res.headers.get('content-security-policy') ?? '', html: await res.text() };
  };
  const ancestors = (csp: string) => /frame-ancestors ([^;]*)/.exec(csp)?.[1];
  const meta = (html: string) => /<meta name="signet-embed-origins" content="([^"]*)">/.exec(html)?.[1];

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: { BUCKET_DOCUMENTS: `embed-docs-${suffix}`, BUCKET_REFERENCES: `embed-refs-${suffix}` },
    });
    [a, b] = await Promise.all([senderAccount(stack.gatewayUrl), senderAccount(stack.gatewayUrl)]);
    [txA, txB] = await Promise.all([createTransaction(stack.gatewayUrl, a), createTransaction(stack.gatewayUrl, b)]);
  }, 180_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('without origins the page may not be framed at all', async () => {
    expect(await get(a)).toEqual([]);
    const p = await signPage(txA.sign_url);
    expect(p.status).toBe(200);
    expect(ancestors(p.csp)).toBe("'none'");
    expect(meta(p.html)).toBe('');
  });

  it('sets, reads and applies the list to every link of the account, and to no other account', async () => {
    const r = await put(a, { origins: ['https://app.example.com', 'http://127.0.0.1:5173', 'https://app.example.com'] });
    expect(r.status, r.text).toBe(200);
    expect(r.body).toEqual({ origins: ['https://app.example.com', 'http://127.0.0.1:5173'] });
    expect(await get(a)).toEqual(['https://app.example.com', 'http://127.0.0.1:5173']);
    const p = await signPage(txA.sign_url);
    expect(ancestors(p.csp)).toBe('https://app.example.com http://127.0.0.1:5173');
    expect(meta(p.html)).toBe('https://app.example.com http://127.0.0.1:5173');
    // The rest of the policy is unchanged.
    expect(p.csp).toContain("script-src 'self'");
    expect(p.csp).toContain("default-src 'self'");

    expect(ancestors((await signPage(txB.sign_url)).csp)).toBe("'none'");
    const unknown = txA.sign_url.replace(/\/sign\/[^/]+$/, `/sign/${'x'.repeat(43)}`);
    expect(ancestors((await signPage(unknown)).csp)).toBe("'none'");
    expect(ancestors((await signPage(txA.sign_url.replace(/\/sign\/[^/]+$/, '/sign/bad%20token'))).csp)).toBe("'none'");
  });

  it('refuses a bad list with 400 naming the origin, and changes nothing', async () => {
    const before = await get(a);
    const bad: [unknown, RegExp][] = [
      [{ origins: ['*'] }, /origins\.0|origins\[0\]/],
      [{ origins: ['https://app.example.com', 'https://evil.example/path'] }, /origins\.1|origins\[1\]/],
      [{ origins: ['http://app.example.com'] }, /https/],
      [{ origins: ['https://*.example.com'] }, /origin/],
      [{ origins: ["https://a.example 'unsafe-inline'"] }, /origin/],
      [{ origins: ['https://a.example;script-src *'] }, /origin/],
      [{ origins: ['https://a.example\u0000'] }, /origin|control|character/i],
      [{ origins: Array.from({ length: 11 }, (_, i) => `https://a${i}.example`) }, /10/],
      [{ origins: 'https://app.example.com' }, /origins/],
      [{}, /origins/],
      [{ origins: [], extra: 1 }, /extra|unrecognized|unknown/i],
    ];
    for (const [body, detail] of bad) {
      const r = await put(a, body);
      expect(r.status, JSON.stringify(body)).toBe(400);
      expect(r.body.detail, JSON.stringify(body)).toMatch(detail);
    }
    expect(await get(a)).toEqual(before);
  });

  it('needs a session and the CSRF token; an API key cannot change or read it', async () => {
    const noCsrf = await send(stack.gatewayUrl, 'PUT', PATH, { token: a.token, json: { origins: [] } });
    expect(noCsrf.status).toBe(403);
    const key = await send(stack.gatewayUrl, 'PUT', PATH, { apiKey: a.apiKey, json: { origins: [] } });
    expect([401, 403]).toContain(key.status);
    expect([401, 403]).toContain((await send(stack.gatewayUrl, 'GET', PATH, { apiKey: a.apiKey })).status);
    expect((await get(a)).length).toBe(2);
  });

  it('an empty list ends framing', async () => {
    expect((await put(a, { origins: [] })).body).toEqual({ origins: [] });
    expect(ancestors((await signPage(txA.sign_url)).csp)).toBe("'none'");
  });
});
