import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { pngPhoto, tinyPdf, type Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send as sendTo, type Reply } from '../support/http.js';

const suffix = randomBytes(3).toString('hex');
type Summary = { id: number; reference: string; signer_name: string; signer_email: string; status: string };

/**
 * GET /api/transactions?q=&status= searches and filters on the server (real identity, billing,
 * transaction, FerretDB, MinIO through the gateway): the owner's transactions only, newest first,
 * paged with the cursor, the next link keeping the filter.
 */
describe('GET /api/transactions: server-side search and status filter', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let a: Account;
  let b: Account;
  /** Account a's transactions by role, and every id newest first. */
  let grace: Summary;
  let withCarol: Summary;
  let paged: Summary[];
  let cancelled: number[];
  let allIds: number[];
  let other: Summary;

  const send = (path: string, acct: Account, init: { method?: string; parts?: Part[] } = {}) =>
    sendTo(stack.gatewayUrl, init.method ?? 'GET', path, { parts: init.parts, apiKey: acct.apiKey });

  async function create(acct: Account, name: string, email: string, extra?: string): Promise<Summary> {
    const parts: Part[] = [
      { name: 'signer_name', value: name },
      { name: 'signer_email', value: email },
      ...(extra ? [{ name: 'signer_emails', value: extra }] : []),
      { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
      { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
    ];
    const r = await send('/api/transactions', acct, { method: 'POST', parts });
    expect(r.status, r.text).toBe(201);
    return { id: r.body.id, reference: r.body.reference, signer_name: name, signer_email: email, status: r.body.status };
  }

  /** Credits bought through the payment provider's signed webhook, so one account can create 25+. */
  async function buyCredits(acct: Account, packs: number) {
    const wh = new Webhook(stack.secrets.WEBHOOK_SECRET);
    const at = new Date();
    const body = JSON.stringify({
      business_id: 'bus_test',
      type: 'payment.succeeded',
      timestamp: at.toISOString(),
      data: {
        payload_type: 'Payment',
        payment_id: `pay_${randomUUID()}`,
        customer: { customer_id: 'cus_search', email: acct.email, name: 'Search Sender' },
        metadata: { user_id: acct.userId, plan: 'payg' },
        subscription_id: null,
        product_cart: [{ product_id: 'prod_credits10', quantity: packs }],
        total_amount: 1000,
        currency: 'USD',
      },
    });
    const id = `msg_${randomUUID()}`;
    const res = await fetch(`${stack.gatewayUrl}/api/webhooks/dodo`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'webhook-id': id,
        'webhook-timestamp': String(Math.floor(at.getTime() / 1000)),
        'webhook-signature': wh.sign(id, at, body),
      },
      body,
    });
    expect(res.status, await res.clone().text()).toBe(200);
    // A payment that beats identity's user.created to billing is held and applied when it arrives.
    await eventually(async () => {
      const me = await send('/api/auth/me', acct, { method: 'POST' });
      return (me.body as { signature_credits?: number }).signature_credits === packs * 10;
    });
  }

  const ids = (r: Reply) => (r.body as Summary[]).map((s) => s.id);
  const list = (acct: Account, params: Record<string, string>) => send(`/api/transactions?${new URLSearchParams(params)}`, acct);
  /** Follows the Link rel="next" header to the end; returns every id and each next link seen. */
  async function walk(acct: Account, params: Record<string, string>) {
    const seen: number[] = [];
    const links: string[] = [];
    let path: string | null = `/api/transactions?${new URLSearchParams(params)}`;
    while (path) {
      const r = await send(path, acct);
      expect(r.status, r.text).toBe(200);
      seen.push(...ids(r));
      const link = r.headers.get('link');
      path = link ? /^<([^>]+)>; rel="next"$/.exec(link)![1]! : null;
      if (path) links.push(path);
      expect(links.length).toBeLessThan(20);
    }
    return { seen, links };
  }

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'SRCH',
        PRODUCT_CATALOG: JSON.stringify({ prod_credits10: { credits: 10 } }),
        BUCKET_DOCUMENTS: `search-docs-${suffix}`,
        BUCKET_REFERENCES: `search-refs-${suffix}`,
      },
    });
    [a, b] = await Promise.all([
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'searcher' }),
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'stranger' }),
    ]);
    await buyCredits(a, 3);

    // 25 for account a: 23 "Paged Signer NN", Grace Hopper, and one with an additional signer Carol.
    grace = await create(a, 'Grace Hopper', `g.hopper-${suffix}@navy.example`);
    withCarol = await create(a, 'Alan Turing', `alan-${suffix}@example.com`, `carol-${suffix}@example.org`);
    paged = [];
    for (let i = 0; i < 23; i += 4) {
      const batch = await Promise.all(
        Array.from({ length: Math.min(4, 23 - i) }, (_, k) =>
          create(a, `Paged Signer ${String(i + k).padStart(2, '0')}`, `paged-${i + k}-${suffix}@example.com`),
        ),
      );
      paged.push(...batch);
    }
    // Three of the paged ones cancelled, for the status filter.
    cancelled = [paged[2]!.id, paged[9]!.id, paged[17]!.id];
    for (const id of cancelled) {
      const r = await send(`/api/transactions/${id}/cancel`, a, { method: 'POST' });
      expect(r.status, r.text).toBe(200);
    }
    allIds = [grace, withCarol, ...paged].map((s) => s.id).sort((x, y) => y - x);
    // Another owner with a look-alike signer: never in a's results.
    other = await create(b, 'Grace Hopper', `g.hopper-${suffix}@navy.example`);
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
  });

  it('finds a transaction by its reference: whole, any case, from TX-, or by its digits alone', async () => {
    const target = paged[7]!;
    const digits = target.reference.split('-').at(-1)!;
    expect(target.reference).toMatch(/^SRCH-TX-\d{8}$/);
    for (const q of [target.reference, target.reference.toLowerCase(), `tx-${digits}`, digits]) {
      const r = await list(a, { q });
      expect(r.status, r.text).toBe(200);
      expect(ids(r), q).toEqual([target.id]);
    }
    // The reference is matched from the start of a part, not in the middle.
    expect(ids(await list(a, { q: `${target.reference}9` }))).toEqual([]);
    expect(ids(await list(a, { q: 'RCH-TX' }))).toEqual([]);
    // All of them share the prefix: every one of a's 25, newest first.
    expect(ids(await list(a, { q: 'srch-tx-', limit: '50' }))).toEqual(allIds);
  });

  it("finds by a fragment of a signer's email, by the name in another case, and by an additional signer", async () => {
    expect(ids(await list(a, { q: `hopper-${suffix}@navy` }))).toEqual([grace.id]);
    expect(ids(await list(a, { q: 'NAVY.EXAMPLE' }))).toEqual([grace.id]);
    const byName = await list(a, { q: '  gRACE hOPPER ' });
    expect(byName.body).toEqual([
      expect.objectContaining({ id: grace.id, signer_name: 'Grace Hopper', reference: grace.reference, status: 'created' }),
    ]);
    expect(ids(await list(a, { q: 'ace hop' }))).toEqual([grace.id]);
    expect(ids(await list(a, { q: `carol-${suffix}` }))).toEqual([withCarol.id]);
    // Regex characters are text: nothing contains ".*" or "(", and neither is an error.
    for (const q of ['.*', '(', '[a-z]+', '\\']) {
      const r = await list(a, { q });
      expect(r.status, `${q}: ${r.text}`).toBe(200);
      expect(r.body, q).toEqual([]);
    }
  });

  it('filters by status, alone and with a search', async () => {
    expect(ids(await list(a, { status: 'cancelled' }))).toEqual([...cancelled].sort((x, y) => y - x));
    const created = await list(a, { status: 'created', limit: '50' });
    expect(ids(created)).toEqual(allIds.filter((id) => !cancelled.includes(id)));
    expect((created.body as Summary[]).every((s) => s.status === 'created')).toBe(true);
    expect(await list(a, { status: 'ledger_issued' }).then((r) => r.body)).toEqual([]);
    expect(ids(await list(a, { status: 'cancelled', q: 'grace' }))).toEqual([]);
    expect(ids(await list(a, { status: 'cancelled', q: paged[9]!.reference }))).toEqual([paged[9]!.id]);
    // An empty status or q is no filter.
    expect(ids(await list(a, { status: '', q: ' ', limit: '50' }))).toEqual(allIds);
  });

  it('pages a search with the cursor: the next link keeps q, status and limit, no row twice or missed', async () => {
    const pagedIds = paged.map((s) => s.id).sort((x, y) => y - x);
    const searched = await walk(a, { q: 'paged signer', limit: '10' });
    expect(searched.seen).toEqual(pagedIds);
    expect(searched.links).toHaveLength(2);
    for (const link of searched.links) {
      const p = new URL(link, 'http://x').searchParams;
      expect([p.get('q'), p.get('limit'), p.get('status')]).toEqual(['paged signer', '10', null]);
      expect(p.get('cursor')).toBeTruthy();
    }
    const first = await list(a, { q: 'paged signer', limit: '10' });
    expect(first.headers.get('x-next-cursor')).toBeTruthy();

    const both = await walk(a, { q: 'PAGED', status: 'created', limit: '10' });
    expect(both.seen).toEqual(pagedIds.filter((id) => !cancelled.includes(id)));
    expect(both.links).toHaveLength(1); // 20 rows: the second page is full and the last
    expect(new URL(both.links[0]!, 'http://x').searchParams.get('status')).toBe('created');

    // Without a filter the same 25 page as before.
    expect((await walk(a, { limit: '10' })).seen).toEqual(allIds);
  });

  it("never returns another owner's transactions", async () => {
    expect(ids(await list(b, { q: 'grace hopper' }))).toEqual([other.id]);
    expect(ids(await list(b, { q: 'paged signer' }))).toEqual([]);
    expect(ids(await list(b, { q: grace.reference }))).toEqual([]);
    expect(ids(await list(b, { status: 'cancelled' }))).toEqual([]);
    expect(ids(await list(a, { q: other.reference }))).toEqual([]);
    expect(ids(await list(a, { q: 'grace hopper' }))).toEqual([grace.id]);
  });

  it('refuses a bad status or a too long q with 400 naming the field', async () => {
    for (const status of ['done', 'CREATED', 'cancelled,created']) {
      const r = await list(a, { status });
      expect(r.status, status).toBe(400);
      expect(r.body.detail).toMatch(/^status: must be one of created, consent_accepted/);
    }
    const twice = await send('/api/transactions?status=created&status=cancelled', a);
    expect(twice.status).toBe(400);
    expect(twice.body.detail).toMatch(/^status:/);
    const long = await list(a, { q: 'x'.repeat(101) });
    expect(long.status).toBe(400);
    expect(long.body).toEqual({ detail: 'q: must be at most 100 characters' });
    expect((await list(a, { q: 'x'.repeat(100) })).body).toEqual([]);
    // Trimmed first: 100 characters between spaces are fine.
    expect((await list(a, { q: ` ${'x'.repeat(100)} ` })).status).toBe(200);
    expect((await send('/api/transactions?q=a&q=b', a)).status).toBe(400);
  });
});
