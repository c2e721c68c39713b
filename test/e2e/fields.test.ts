/**
 * Fields on the document (issue 33 items 2 and 5), through the gateway only, on real identity,
 * billing, transaction (pdf.js reading the PDF), MinIO, FerretDB and Mailpit:
 * - a transaction with fields for two signers, placed by coordinates and by anchor tags in the PDF;
 * - every bad field is a 400 naming it, with no quota used and nothing listed;
 * - each signer sees only their fields and fills them; the server checks every value again;
 * - the ceremony takes no consent while a signer's required fields are empty.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { drawnPng, pdfWithText, stroke, textChunk } from '../fixtures/fields.js';
import type { Part } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

const PDF = pdfWithText([
  [
    { x: 72, y: 720, size: 18, text: 'Service agreement' },
    { x: 72, y: 500, size: 12, text: 'Company: {{company}}' },
  ],
  [
    { x: 72, y: 720, size: 12, text: 'Page two' },
    { x: 300, y: 100, size: 10, text: '{{initials:signer2}}' },
  ],
]);

type Field = Record<string, unknown>;
const FIELDS: Field[] = [
  { id: 'sig', type: 'signature', signer: 0, page: 1, x: 72, y: 100, width: 200, height: 50 },
  {
    id: 'company',
    type: 'text',
    signer: 0,
    anchor: '{{company}}',
    width: 150,
    height: 14,
    max_length: 20,
    pattern: '[A-Z][A-Za-z ]+',
  },
  { id: 'date', type: 'date_signed', signer: 0, page: 1, x: 72, y: 60, width: 100, height: 14 },
  { id: 'po', type: 'text', signer: 0, page: 1, x: 400, y: 60, width: 100, height: 14, readonly: true, value: 'PO 1234' },
  { id: 'ini', type: 'initials', signer: 1, anchor: '{{initials:signer2}}' },
  {
    id: 'plan',
    type: 'dropdown',
    signer: 1,
    page: 2,
    x: 72,
    y: 300,
    width: 100,
    height: 20,
    options: ['Basic', 'Pro'],
    value: 'Basic',
  },
  { id: 'agree', type: 'checkbox', signer: 1, page: 2, x: 72, y: 250, width: 14, height: 14 },
  { id: 'note', type: 'text', signer: 1, required: false, page: 2, x: 72, y: 200, width: 300, height: 20 },
];

type SignerFields = {
  fields: { id: string; type: string; required: boolean; readonly: boolean; places: Record<string, number>[]; value: unknown }[];
  complete: boolean;
  submitted_at: string | null;
  signature: string | null;
  initials: string | null;
};

describe('fields on the document: placed at creation, filled by each signer', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let gw: string;
  let acct: Account;

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway']);
    gw = stack.gatewayUrl;
    acct = await createAccount(gw, infra().MAILPIT_URL, { tag: 'fields' });
  });
  afterAll(async () => {
    await stack?.stop();
  });

  const email = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
  const parties = () => [
    { name: 'Ada Lovelace', email: email('ada'), verification: 'liveness_only', required_assurance: 'recorded' },
    { name: 'Bob Babbage', email: email('bob'), verification: 'liveness_only', required_assurance: 'recorded' },
    { name: 'Vera Viewer', email: email('vera'), role: 'viewer' },
  ];
  const form = (fields: unknown, who = parties(), pdf = PDF): Part[] => [
    { name: 'signers', value: JSON.stringify(who) },
    { name: 'fields', value: typeof fields === 'string' ? fields : JSON.stringify(fields) },
    { name: 'document', data: pdf, filename: 'agreement.pdf', contentType: 'application/pdf' },
  ];
  const create = (parts: Part[], key = acct.apiKey) => send(gw, 'POST', '/api/transactions', { apiKey: key, parts });
  const used = async () => (await send(gw, 'POST', '/api/auth/me', { apiKey: acct.apiKey })).body.monthly_used as number;
  const listed = async () =>
    ((await send(gw, 'GET', '/api/transactions?limit=200', { apiKey: acct.apiKey })).body as unknown[]).length;
  const fieldsOf = async (token: string) => {
    const r = await send(gw, 'GET', `/api/sign/${token}/fields`);
    expect(r.status, r.text).toBe(200);
    return r.body as SignerFields;
  };
  const submit = (token: string, json: unknown) => send(gw, 'PUT', `/api/sign/${token}/fields`, { json });

  async function tokenMailedTo(address: string): Promise<string> {
    const text = await eventually(async () => {
      const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
      const [m] = ((await res.json()) as { messages?: { ID: string }[] }).messages ?? [];
      if (!m) return undefined;
      return ((await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${m.ID}`)).json()) as { Text: string }).Text;
    });
    const token = new RegExp(`${gw}/sign/([A-Za-z0-9_-]{43,})`).exec(text)?.[1];
    expect(token, text).toBeDefined();
    return token!;
  }

  it('refuses each bad field with a 400 naming it; nothing is stored and no quota is used', async () => {
    const before = { used: await used(), listed: await listed() };
    const at = { page: 1, x: 72, y: 100, width: 100, height: 20 };
    const cases: [string, unknown, RegExp][] = [
      ['not JSON', '[{"type":', /^fields: is not valid JSON$/],
      ['not a list', '{"type":"text"}', /^fields: must be a JSON array/],
      [
        'an unknown type',
        [{ type: 'stamp', signer: 0, ...at }],
        /^fields\[0\] \(field_1\): type must be one of signature, initials/,
      ],
      [
        'off the page (right edge)',
        [{ type: 'text', signer: 0, ...at, x: 600 }],
        /^fields\[0\] \(field_1\): lies outside page 1 \(612 × 792 points\)/,
      ],
      ['off the page (top edge)', [{ type: 'text', signer: 0, ...at, y: 780 }], /lies outside page 1/],
      [
        'a page that does not exist',
        [{ type: 'text', signer: 0, ...at, page: 3 }],
        /^fields\[0\] \(field_1\): page 3 does not exist \(the document has 2 pages\)$/,
      ],
      [
        'a negative coordinate',
        [{ type: 'text', signer: 0, ...at, x: -5 }],
        /^fields\[0\] \(field_1\): x must be a number from 0/,
      ],
      [
        'overlapping fields of two signers',
        [
          { id: 'a', type: 'text', signer: 0, ...at },
          { id: 'b', type: 'text', signer: 1, ...at, x: 150 },
        ],
        /^fields\[1\] \(b\): overlaps fields\[0\] \(a\) on page 1: fields of two signers must not overlap/,
      ],
      [
        'an anchored field overlapping another signer’s',
        [
          { id: 'a', type: 'initials', signer: 1, anchor: '{{initials:signer2}}' },
          { id: 'b', type: 'text', signer: 0, page: 2, x: 290, y: 95, width: 30, height: 10 },
        ],
        /^fields\[1\] \(b\): overlaps fields\[0\] \(a\) on page 2/,
      ],
      [
        'an anchor not found',
        [{ type: 'signature', signer: 0, anchor: '{{signature:signer9}}' }],
        /^fields\[0\] \(field_1\): anchor "\{\{signature:signer9\}\}" is not found in the document's text$/,
      ],
      [
        'an anchored field pushed off the page',
        [{ type: 'text', signer: 0, anchor: '{{company}}', offset_x: 500 }],
        /lies outside page 1/,
      ],
      [
        'a dropdown value not in its options',
        [{ type: 'dropdown', signer: 0, ...at, options: ['A', 'B'], value: 'C' }],
        /^fields\[0\] \(field_1\): must be one of the options: "A", "B"$/,
      ],
      [
        'a pattern that is not a regex',
        [{ type: 'text', signer: 0, ...at, pattern: '(a' }],
        /^fields\[0\] \(field_1\): pattern is not a valid regular expression/,
      ],
      [
        'a pattern with a backreference (no linear-time match)',
        [{ type: 'text', signer: 0, ...at, pattern: '(a+)\\1' }],
        /pattern is not a valid regular expression \(RE2 syntax/,
      ],
      [
        'a pattern too long',
        [{ type: 'text', signer: 0, ...at, pattern: 'a'.repeat(201) }],
        /pattern must be at most 200 characters/,
      ],
      [
        'a prefilled value breaking its pattern',
        [{ type: 'text', signer: 0, ...at, pattern: '[0-9]+', value: 'abc' }],
        /does not match the pattern/,
      ],
      [
        'a prefilled value over max_length',
        [{ type: 'text', signer: 0, ...at, max_length: 3, value: 'abcd' }],
        /must be at most 3 characters/,
      ],
      [
        'a viewer’s field',
        [{ type: 'text', signer: 2, ...at }],
        /^fields\[0\] \(field_1\): signer 2 is a viewer, who fills no fields$/,
      ],
      [
        'a signer who is not listed',
        [{ type: 'text', signer: 7, ...at }],
        /signer must be the position of a signer in the signers list \(0 to 2\)/,
      ],
      ['a prefilled signature', [{ type: 'signature', signer: 0, ...at, value: 'Ada' }], /a signature field cannot be prefilled/],
      [
        'a duplicate id',
        [
          { id: 'x', type: 'text', signer: 0, ...at },
          { id: 'x', type: 'text', signer: 0, ...at },
        ],
        /^fields\[1\]: id "x" is used twice$/,
      ],
      [
        'both anchor and page',
        [{ type: 'text', signer: 0, ...at, anchor: '{{company}}' }],
        /give either anchor or page, x and y, not both/,
      ],
    ];
    for (const [name, fields, detail] of cases) {
      const r = await create(form(fields));
      expect(r.status, `${name}: ${r.text}`).toBe(400);
      expect(r.body.detail, name).toMatch(detail);
    }
    expect({ used: await used(), listed: await listed() }).toEqual(before);
  });

  it('places fields for two signers by coordinates and anchors; each fills theirs, checked again by the server', async () => {
    const who = parties();
    const created = await create(form(FIELDS, who));
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const ada = /\/sign\/([A-Za-z0-9_-]+)$/.exec(created.body.sign_url as string)![1]!;
    const bob = await tokenMailedTo(who[1]!.email);

    // Each signer sees their own fields only, where the sender put them.
    const a = await fieldsOf(ada);
    expect(a.fields.map((f) => f.id)).toEqual(['sig', 'company', 'date', 'po']);
    expect(a.complete).toBe(false);
    const company = a.fields.find((f) => f.id === 'company')!;
    // "Company: " precedes the tag in its run: the field starts after it, on the run's baseline.
    expect(company.places).toHaveLength(1);
    expect(company.places[0]).toMatchObject({ page: 1, y: 500, width: 150, height: 14 });
    expect(company.places[0]!.x).toBeGreaterThan(100);
    expect(a.fields.find((f) => f.id === 'po')).toMatchObject({ readonly: true, value: 'PO 1234' });
    expect(a.fields.find((f) => f.id === 'date')!.value).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const b = await fieldsOf(bob);
    expect(b.fields.map((f) => f.id)).toEqual(['ini', 'plan', 'agree', 'note']);
    const ini = b.fields.find((f) => f.id === 'ini')!;
    // The tag is a run of its own at (300, 100), 10 pt: the field is its box.
    expect(ini.places[0]).toMatchObject({ page: 2, x: 300, y: 100, height: 10 });
    expect(ini.places[0]!.width).toBeGreaterThan(60);
    expect(b.fields.find((f) => f.id === 'plan')!.value).toBe('Basic');

    // Refused values: each a 400 naming the field; nothing kept.
    const sig = { png: drawnPng(400, 120, stroke(400, 120)).toString('base64') };
    const good = { values: { company: 'Analytical Engines' }, signature: sig };
    const refusals: [string, unknown, RegExp][] = [
      [
        'a text over max_length',
        { ...good, values: { company: 'A'.repeat(21) } },
        /^values\.company: must be at most 20 characters$/,
      ],
      [
        'a text breaking its pattern',
        { ...good, values: { company: 'lower case' } },
        /^values\.company: does not match the pattern/,
      ],
      ['a required text missing', { signature: sig }, /^values\.company: is required$/],
      ['a required signature missing', { values: good.values }, /^signature: is required \(field sig\)$/],
      [
        'another signer’s field',
        { ...good, values: { ...good.values, agree: true } },
        /^values\.agree: is not one of your fields$/,
      ],
      ['an unknown field', { ...good, values: { ...good.values, nope: 'x' } }, /^values\.nope: is not one of your fields$/],
      ['a read-only field', { ...good, values: { ...good.values, po: 'PO 9' } }, /^values\.po: is read-only/],
      [
        'a computed field',
        { ...good, values: { ...good.values, date: '1999-01-01' } },
        /^values\.date: a date_signed field is filled by the service$/,
      ],
      [
        'initials nobody asked of this signer',
        { ...good, initials: { typed: 'AL' } },
        /^initials: none of your fields takes initials$/,
      ],
      [
        'a drawing that is not a PNG',
        { ...good, signature: { png: Buffer.from('GIF89a....').toString('base64') } },
        /^signature: the drawing must be a PNG image$/,
      ],
      [
        'a drawing too large in pixels',
        { ...good, signature: { png: drawnPng(1600, 100, stroke(1600, 100)).toString('base64') } },
        /^signature: the drawing must be 16×8 to 1200×600 pixels \(it is 1600×100\)$/,
      ],
      [
        'a blank drawing',
        { ...good, signature: { png: drawnPng(400, 120, () => false).toString('base64') } },
        /^signature: the drawing is blank$/,
      ],
      [
        'a PNG cut short',
        { ...good, signature: { png: drawnPng(400, 120, stroke(400, 120)).subarray(0, 60).toString('base64') } },
        /^signature: the drawing is not a decodable PNG image$/,
      ],
      [
        'both drawn and typed',
        { ...good, signature: { ...sig, typed: 'Ada' } },
        /^signature: give either a drawn PNG or typed text/,
      ],
    ];
    for (const [name, body, detail] of refusals) {
      const r = await submit(ada, body);
      expect(r.status, `${name}: ${r.text}`).toBe(400);
      expect(r.body.detail, name).toMatch(detail);
    }
    expect((await fieldsOf(ada)).submitted_at).toBeNull();
    // No consent (so no ceremony) while required fields are empty.
    const consent = (token: string) =>
      send(gw, 'POST', `/api/sign/${token}/consent`, { json: { consent_text_version: 'consent-v1' } });
    const early = await consent(ada);
    expect(early.status, early.text).toBe(409);
    expect(early.body.detail).toMatch(/^fill in your fields on the document first/);

    // A pattern that backtracking engines take exponential time on answers at once (RE2: linear).
    const slow = await create(
      form([
        { id: 't', type: 'text', signer: 0, page: 1, x: 72, y: 100, width: 100, height: 20, max_length: 1000, pattern: '(a+)+$' },
      ]),
    );
    expect(slow.status, slow.text).toBe(201);
    const slowToken = /\/sign\/([A-Za-z0-9_-]+)$/.exec(slow.body.sign_url as string)![1]!;
    const t0 = Date.now();
    const evil = await submit(slowToken, { values: { t: `${'a'.repeat(998)}!` } });
    expect(evil.status, evil.text).toBe(400);
    expect(evil.body.detail).toMatch(/^values\.t: does not match the pattern/);
    expect(Date.now() - t0).toBeLessThan(5000);

    // Ada fills hers: kept, the drawing re-encoded (its metadata chunk gone).
    const drawing = drawnPng(400, 120, stroke(400, 120), [textChunk('Comment', 'not kept')]);
    const ok = await submit(ada, { values: { company: 'Analytical Engines' }, signature: { png: drawing.toString('base64') } });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body).toMatchObject({ complete: true, signature: 'drawn', initials: null });
    expect((ok.body as SignerFields).fields.find((f) => f.id === 'company')!.value).toBe('Analytical Engines');
    const now = await consent(ada);
    expect(now.status, now.text).toBe(201);

    // Bob: wrong kinds refused, then typed initials, a choice and the box ticked.
    for (const [body, detail] of [
      [{ values: { agree: 'yes', plan: 'Pro' }, initials: { typed: 'BB' } }, /^values\.agree: a checkbox takes true or false$/],
      [
        { values: { agree: true, plan: 'Gold' }, initials: { typed: 'BB' } },
        /^values\.plan: must be one of the options: "Basic", "Pro"$/,
      ],
      [{ values: { agree: false }, initials: { typed: 'BB' } }, /^values\.agree: must be ticked$/],
      [
        { values: { agree: true, note: 'x'.repeat(201) }, initials: { typed: 'BB' } },
        /^values\.note: must be at most 200 characters$/,
      ],
      [
        { values: { agree: true, note: 'a\u0007b' }, initials: { typed: 'BB' } },
        /^values\.note: must not contain control characters/,
      ],
    ] as const) {
      const r = await submit(bob, body);
      expect(r.status, r.text).toBe(400);
      expect(r.body.detail).toMatch(detail);
    }
    const bobOk = await submit(bob, { values: { agree: true, plan: 'Pro' }, initials: { typed: 'BB' } });
    expect(bobOk.status, bobOk.text).toBe(200);
    expect(bobOk.body).toMatchObject({ complete: true, initials: 'typed' });
    const plan = (bobOk.body as SignerFields).fields.find((f) => f.id === 'plan')!;
    expect(plan.value).toBe('Pro');

    // The audit trail lists the values; another owner sees nothing of it; a bad token is 404.
    const detail = await send(gw, 'GET', `/api/transactions/${id}`, { apiKey: acct.apiKey });
    const trail = (detail.body.events as { type: string; detail: string }[]).filter((e) => e.type === 'fields_submitted');
    expect(trail.map((e) => e.detail)).toEqual([
      expect.stringMatching(
        new RegExp(`^${who[0]!.email} filled their fields: company="Analytical Engines", signature=drawn sha256:[0-9a-f]{16}$`),
      ),
      `${who[1]!.email} filled their fields: agree=true, plan="Pro", initials=typed "BB"`,
    ]);
    const other = await createAccount(gw, infra().MAILPIT_URL, { tag: 'fields-other' });
    expect((await send(gw, 'GET', `/api/transactions/${id}`, { apiKey: other.apiKey })).status).toBe(404);
    expect((await send(gw, 'GET', `/api/sign/${'x'.repeat(43)}/fields`)).status).toBe(404);
    expect((await submit('y'.repeat(43), good)).status).toBe(404);
  });

  it('keeps creation without fields as it was: no fields for the signer, complete', async () => {
    const r = await create(form(undefined as unknown as string).filter((p) => p.name !== 'fields'));
    expect(r.status, r.text).toBe(201);
    const token = /\/sign\/([A-Za-z0-9_-]+)$/.exec(r.body.sign_url as string)![1]!;
    expect(await fieldsOf(token)).toEqual({ fields: [], complete: true, submitted_at: null, signature: null, initials: null });
    const consent = await send(gw, 'POST', `/api/sign/${token}/consent`, { json: { consent_text_version: 'consent-v1' } });
    expect(consent.status, consent.text).toBe(201);
    const none = await submit(token, { values: { x: 'y' } });
    expect(none.status).toBe(400);
  });
});
