/**
 * Languages through the gateway (issue 34 item 5): the sender chooses a signer's language at creation
 * (`signer_locale` on the one-signer form, `locale` on each party of `signers`); an unknown one is a
 * 400 naming the field with nothing created; the transaction shows it; the signing page is given it
 * (`<meta name="signet-locale">`) and the signing-link mail is written in it (Arabic right to left).
 * Without a choice the page gets none (the browser decides) and the mail is English.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send, senderAccount } from '../support/ceremony-helpers.js';
import { makePng, tinyPdf } from '../fixtures/ceremony-media.js';

const suffix = Math.random().toString(16).slice(2, 8);
type Mail = { ID: string; Subject: string };

describe('the signer’s language, chosen by the sender', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  const dir = mkdtempSync(join(tmpdir(), 'signet-lang-'));
  const email = (tag: string) => `lang-${tag}-${randomBytes(4).toString('hex')}@example.com`;

  const create = (fields: Record<string, string>, photos: Record<string, Buffer> = { reference: makePng(dir) }) =>
    send(stack.gatewayUrl, 'POST', '/api/transactions', {
      headers: { 'x-api-key': acct.apiKey },
      parts: [
        ...Object.entries(fields).map(([name, value]) => ({ name, value })),
        { name: 'document', filename: 'Umowa.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) },
        ...Object.entries(photos).map(([name, data]) => ({ name, filename: 'face.png', contentType: 'image/png', data })),
      ],
    });
  const count = async () =>
    ((await send(stack.gatewayUrl, 'GET', '/api/transactions?limit=200', { apiKey: acct.apiKey })).body as unknown[]).length;
  const mailTo = async (to: string) => {
    const found = await eventually(async () => {
      const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${to}"`)}`);
      return ((await res.json()) as { messages: Mail[] }).messages?.[0];
    }, 20_000);
    return (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${found.ID}`)).json()) as {
      Subject: string;
      Text: string;
      HTML: string;
    };
  };
  const pageMeta = async (url: string) =>
    /<meta name="signet-locale" content="([^"]*)">/.exec(await (await fetch(url)).text())?.[1];

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], {
      env: { BUCKET_DOCUMENTS: `lang-docs-${suffix}`, BUCKET_REFERENCES: `lang-refs-${suffix}` },
    });
    acct = await senderAccount(stack.gatewayUrl);
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('refuses a language it does not have with a 400 naming the field, and creates nothing', async () => {
    const before = await count();
    const bad = await create({ signer_name: 'Ada', signer_email: email('bad'), signer_locale: 'tlh' });
    expect(bad.status).toBe(400);
    expect(bad.body.detail).toMatch(/^signer_locale: must be one of en, de, fr, es, pl, pt, ar, zh/);
    const party = await create(
      { signers: JSON.stringify([{ name: 'Ada', email: email('p'), verification: 'liveness_only', locale: 'xx' }]) },
      {},
    );
    expect(party.status).toBe(400);
    expect(party.body.detail).toMatch(/locale/);
    const mixed = await create(
      { signers: JSON.stringify([{ name: 'Ada', email: email('m'), verification: 'liveness_only' }]), signer_locale: 'de' },
      {},
    );
    expect(mixed.status).toBe(400);
    expect(mixed.body.detail).toMatch(/^signer_locale: with signers/);
    expect(await count()).toBe(before);
  });

  it('one-signer form: the transaction, the page and the link mail in Polish', async () => {
    const to = email('pl');
    const r = await create({ signer_name: 'Jan Kowalski', signer_email: to, signer_locale: 'PL' });
    expect(r.status).toBe(201);
    const detail = (await send(stack.gatewayUrl, 'GET', `/api/transactions/${r.body.id}`, { apiKey: acct.apiKey })).body;
    expect(detail.signers[0].locale).toBe('pl');
    expect(await pageMeta(r.body.sign_url)).toBe('pl');
    const mail = await mailTo(to);
    expect(mail.Subject).toBe('Ceremony Test Ltd prosi o podpisanie „Umowa.pdf”');
    expect(mail.Text).toContain('Otwórz ten link, aby go przejrzeć i podpisać:');
    expect(mail.Text).toContain(r.body.sign_url);
    expect(mail.HTML).toContain('lang="pl"');
  });

  it('signers list: each party in its own language, Arabic right to left; none chosen: English and no meta', async () => {
    const [ar, de, none] = [email('ar'), email('de'), email('none')];
    const r = await create(
      {
        signers: JSON.stringify([
          { name: 'محمد', email: ar, verification: 'liveness_only', locale: 'ar' },
          { name: 'Jürgen', email: de, verification: 'liveness_only', locale: 'de' },
          { name: 'Ada', email: none, verification: 'liveness_only' },
        ]),
      },
      {},
    );
    expect(r.status).toBe(201);
    const detail = (await send(stack.gatewayUrl, 'GET', `/api/transactions/${r.body.id}`, { apiKey: acct.apiKey })).body;
    expect(detail.signers.map((s: { locale: string | null }) => s.locale)).toEqual(['ar', 'de', null]);
    const arMail = await mailTo(ar);
    expect(arMail.Subject).toBe('Ceremony Test Ltd يطلب منك توقيع «Umowa.pdf»');
    expect(arMail.HTML).toMatch(/<html lang="ar" dir="rtl">/);
    expect((await mailTo(de)).Subject).toBe('Ceremony Test Ltd bittet Sie, „Umowa.pdf“ zu unterschreiben');
    const en = await mailTo(none);
    expect(en.Subject).toBe('Ceremony Test Ltd asks you to sign "Umowa.pdf"');
    const links = [arMail, en].map((m) => /https?:\/\/\S+\/sign\/\S+/.exec(m.Text)![0]);
    expect(await pageMeta(links[0]!)).toBe('ar');
    expect(await pageMeta(links[1]!)).toBeUndefined();
  });
});
