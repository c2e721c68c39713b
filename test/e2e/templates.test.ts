/**
 * Templates (issue 33 item 3) through the gateway only, on the real services, MinIO, FerretDB,
 * Mailpit, the local TSA and pyHanko/poppler:
 * - a template is a PDF with fields for signer roles; every bad template is a 400 naming the field,
 *   with nothing stored; list (paged), read, change (checked again) and delete; another owner's and
 *   the other mode's are 404;
 * - a transaction from a template maps its roles to signers (each with a face photo as base64) and
 *   prefills values; bad requests are 400s with nothing created and no quota used;
 * - done when: a template with fields for two signers, a transaction from it, both signers fill their
 *   fields and pass the ceremony (the corpus capture); the signed PDF shows each value at its place
 *   (pdftoppm: ink inside each field's box where the original has none), pyHanko validates it, the
 *   audit trail lists the values, and the certificate binds the filled document's hash (issue 33
 *   item 2): the signed PDF's first two revisions hash to its filled_document_sha256.
 */
import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeGenuineCapture } from '../../services/biometrics/test/corpus/make-corpus.js';
import { extractCertJson, pdfText, pyhankoValidate } from '../../services/ledger/test/fixtures/signed-pdf-checks.js';
import type { Part } from '../fixtures/documents.js';
import { drawnPng, pdfWithText, stroke } from '../fixtures/fields.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { eventually, infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';
import { submitPredictedCapture } from '../support/predicted-capture.js';

const SEED = 'templates-e2e-seed-v1';
const PDF = pdfWithText([
  [
    { x: 72, y: 720, size: 18, text: 'Consulting agreement' },
    { x: 72, y: 600, size: 12, text: 'Client company: {{company}}' },
    { x: 72, y: 560, size: 12, text: 'Plan:' },
  ],
  [{ x: 72, y: 720, size: 12, text: 'Witnessed by' }],
]);

type Field = Record<string, unknown>;
/** Two roles' fields: the client's by coordinates and by an anchor, the witness's on page 2. */
const FIELDS: Field[] = [
  { id: 'client_sig', type: 'signature', role: 'client', page: 1, x: 72, y: 100, width: 200, height: 50 },
  { id: 'company', type: 'text', role: 'client', anchor: '{{company}}', width: 180, height: 16, max_length: 40 },
  { id: 'plan', type: 'dropdown', role: 'client', page: 1, x: 120, y: 552, width: 100, height: 20, options: ['Basic', 'Pro'] },
  { id: 'client_name', type: 'full_name', role: 'client', page: 1, x: 300, y: 100, width: 200, height: 20 },
  { id: 'witness_ini', type: 'initials', role: 'witness', page: 2, x: 72, y: 600, width: 80, height: 40 },
  { id: 'witness_note', type: 'text', role: 'witness', page: 2, x: 72, y: 500, width: 300, height: 20 },
  { id: 'witness_ok', type: 'checkbox', role: 'witness', page: 2, x: 72, y: 450, width: 16, height: 16 },
];
/**
 * The share of dark pixels inside a box (points from the page's top left) of a page rendered by
 * pdftoppm at 72 dpi, grey: 1 pixel per point.
 */
function inkMeter(dir: string) {
  const rendered = new Map<string, Buffer>();
  return (path: string, page: number, [x0, y0, x1, y1]: [number, number, number, number]): number => {
    const out = join(dir, `${path.split('/').at(-1)}-p${page}`);
    if (!rendered.has(out)) {
      execFileSync('pdftoppm', ['-r', '72', '-gray', '-f', String(page), '-l', String(page), '-singlefile', path, out]);
      rendered.set(out, readFileSync(`${out}.pgm`));
    }
    const pgm = rendered.get(out)!;
    const head = /^P5\s+(\d+)\s+\d+\s+255\s/.exec(pgm.toString('latin1', 0, 40))!;
    const w = Number(head[1]);
    let dark = 0;
    let all = 0;
    for (let y = Math.floor(y0); y < Math.ceil(y1); y++)
      for (let x = Math.floor(x0); x < Math.ceil(x1); x++) {
        all++;
        if (pgm[head[0].length + y * w + x]! < 160) dark++;
      }
    return dark / Math.max(all, 1);
  };
}

const ROLES = [
  { name: 'client', required_assurance: 'recorded' },
  { name: 'witness', order: 1, required_assurance: 'recorded' },
];

describe('templates: a document with fields and signer roles, and transactions from it', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let gw: string;
  let acct: Account;
  let testKey: string;
  let dir: string;
  let photo: Buffer;
  const pki = infra().DEV_PKI_DIR ?? '';

  beforeAll(async () => {
    if (!infra().TSA_URL || !pki)
      throw new Error('no local TSA: the harness starts one with scripts/tsa.sh (run scripts/install.sh)');
    dir = mkdtempSync(join(tmpdir(), 'signet-templates-e2e-'));
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'biometrics', 'ledger', 'gateway'], {
      env: {
        CHALLENGE_TEST_SEED: SEED,
        LEDGER_SEAL_CERT: join(pki, 'certs/seal.pem'),
        LEDGER_SEAL_KEY: join(pki, 'keys/seal.key.pem'),
        LEDGER_TSA_URLS: infra().TSA_URL!,
      },
    });
    gw = stack.gatewayUrl;
    acct = await createAccount(gw, infra().MAILPIT_URL, { tag: 'templates' });
    const csrf = (await send(gw, 'GET', '/api/admin/csrf', { token: acct.token })).body.csrf as string;
    const key = await send(gw, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: acct.token,
      json: { name: 'sandbox', mode: 'test' },
    });
    expect(key.status, key.text).toBe(201);
    testKey = key.body.key as string;
    photo = readFileSync((await makeGenuineCapture(join(dir, 'ref'), null)).reference);
  }, 300_000);
  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  const form = (o: { name?: string | null; roles?: unknown; fields?: unknown; pdf?: Buffer | null } = {}): Part[] => [
    ...(o.name === undefined
      ? [{ name: 'name', value: 'Consulting agreement' }]
      : o.name === null
        ? []
        : [{ name: 'name', value: o.name }]),
    { name: 'roles', value: typeof o.roles === 'string' ? o.roles : JSON.stringify(o.roles ?? ROLES) },
    { name: 'fields', value: typeof o.fields === 'string' ? o.fields : JSON.stringify(o.fields ?? FIELDS) },
    ...(o.pdf === null
      ? []
      : [{ name: 'document', data: o.pdf ?? PDF, filename: 'agreement.pdf', contentType: 'application/pdf' }]),
  ];
  const createTemplate = (parts: Part[], apiKey = acct.apiKey) => send(gw, 'POST', '/api/templates', { apiKey, parts });
  const list = async (apiKey = acct.apiKey) =>
    (await send(gw, 'GET', '/api/templates?limit=100', { apiKey })).body.items as { id: string }[];
  const used = async () => (await send(gw, 'POST', '/api/auth/me', { apiKey: acct.apiKey })).body.monthly_used as number;
  const txCount = async () =>
    ((await send(gw, 'GET', '/api/transactions?limit=200', { apiKey: acct.apiKey })).body as unknown[]).length;
  const email = (tag: string) => `${tag}-${randomBytes(4).toString('hex')}@example.com`;
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

  it('refuses each bad template with a 400 naming the field; nothing is stored', async () => {
    const before = (await list()).length;
    const at = { page: 1, x: 72, y: 100, width: 100, height: 20 };
    const cases: [string, Part[], RegExp][] = [
      ['no name', form({ name: null }), /^name: is required$/],
      ['a blank name', form({ name: '   ' }), /^name: is required$/],
      ['no document', form({ pdf: null }), /^document: is required$/],
      ['not a PDF', form({ pdf: Buffer.from('GIF89a not a pdf') }), /^document: is not a PDF/],
      ['roles not JSON', form({ roles: '[{"name":' }), /^roles: is not valid JSON$/],
      ['no roles', form({ roles: [] }), /^roles: /],
      [
        'two roles of one name',
        form({ roles: [{ name: 'client' }, { name: 'Client' }] }),
        /^roles\[1\]: name "Client" is used twice$/,
      ],
      [
        'a role order with a gap',
        form({
          roles: [
            { name: 'client', order: 1 },
            { name: 'witness', order: 3 },
          ],
        }),
        /^roles: orders must run 1, 2, … without gaps/,
      ],
      [
        'a field of no role',
        form({ fields: [{ type: 'text', role: 'notary', ...at }] }),
        /^fields\[0\]: role must name one of the template's roles: client, witness$/,
      ],
      [
        'a field naming a signer',
        form({ fields: [{ type: 'text', signer: 0, ...at }] }),
        /^fields\[0\]: a template field names its role, not a signer$/,
      ],
      [
        'off the page',
        form({ fields: [{ type: 'text', role: 'client', ...at, x: 600 }] }),
        /^fields\[0\] \(field_1\): lies outside page 1 \(612 × 792 points\)/,
      ],
      [
        'a page that does not exist',
        form({ fields: [{ type: 'text', role: 'client', ...at, page: 3 }] }),
        /^fields\[0\] \(field_1\): page 3 does not exist \(the document has 2 pages\)$/,
      ],
      [
        'two roles overlapping',
        form({
          fields: [
            { id: 'a', type: 'text', role: 'client', ...at },
            { id: 'b', type: 'text', role: 'witness', ...at, x: 150 },
          ],
        }),
        /^fields\[1\] \(b\): overlaps fields\[0\] \(a\) on page 1: fields of two signers must not overlap/,
      ],
      [
        'an anchor not found',
        form({ fields: [{ type: 'signature', role: 'client', anchor: '{{nowhere}}' }] }),
        /^fields\[0\] \(field_1\): anchor "\{\{nowhere\}\}" is not found in the document's text$/,
      ],
      [
        'a bad prefilled value',
        form({ fields: [{ type: 'dropdown', role: 'client', ...at, options: ['A'], value: 'B' }] }),
        /^fields\[0\] \(field_1\): must be one of the options: "A"$/,
      ],
    ];
    for (const [name, parts, detail] of cases) {
      const r = await createTemplate(parts);
      expect(r.status, `${name}: ${r.text}`).toBe(400);
      expect(r.body.detail, name).toMatch(detail);
    }
    expect((await list()).length).toBe(before);
  });

  it('creates, lists page by page, reads, changes (checked again) and deletes; another owner and the other mode get 404', async () => {
    const made: string[] = [];
    for (const name of ['First', 'Second', 'Third']) {
      const r = await createTemplate(form({ name }));
      expect(r.status, r.text).toBe(201);
      made.push(r.body.id as string);
    }
    const t = (await send(gw, 'GET', `/api/templates/${made[0]}`, { apiKey: acct.apiKey })).body;
    expect(t).toMatchObject({
      name: 'First',
      document_name: 'agreement.pdf',
      document_sha256: createHash('sha256').update(PDF).digest('hex'),
      document_size: PDF.length,
      pages: [
        { width: 612, height: 792 },
        { width: 612, height: 792 },
      ],
      test: false,
    });
    expect(t.roles).toEqual([
      { name: 'client', order: 1, verification: 'face_match', webauthn: false, required_assurance: 'recorded' },
      { name: 'witness', order: 1, verification: 'face_match', webauthn: false, required_assurance: 'recorded' },
    ]);
    expect((t.fields as Field[]).map((f) => [f.id, f.role])).toEqual(FIELDS.map((f) => [f.id, f.role]));
    // Its document, byte for byte as uploaded (the editor renders it after a reload).
    const doc = await fetch(`${gw}/api/templates/${made[0]}/document`, { headers: { 'x-api-key': acct.apiKey } });
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await doc.arrayBuffer()).equals(PDF)).toBe(true);

    // Paged newest first.
    const p1 = await send(gw, 'GET', '/api/templates?limit=2', { apiKey: acct.apiKey });
    expect(p1.status, p1.text).toBe(200);
    expect(p1.body.items.map((i: { id: string }) => i.id)).toEqual([made[2], made[1]]);
    const p2 = await send(gw, 'GET', `/api/templates?limit=2&cursor=${p1.body.next_cursor}`, { apiKey: acct.apiKey });
    expect(p2.body.items.map((i: { id: string }) => i.id)[0]).toBe(made[0]);

    // Changed: a new name; fields that break against the document are refused and change nothing.
    const patch = (id: string, json: unknown, apiKey = acct.apiKey) =>
      send(gw, 'PATCH', `/api/templates/${id}`, { apiKey, json });
    const renamed = await patch(made[0]!, { name: 'Renamed' });
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.name).toBe('Renamed');
    const offPage = await patch(made[0]!, {
      fields: [{ type: 'text', role: 'client', page: 2, x: 10, y: 780, width: 50, height: 30 }],
    });
    expect(offPage.status, offPage.text).toBe(400);
    expect(offPage.body.detail).toMatch(/lies outside page 2/);
    const noRole = await patch(made[0]!, { roles: [{ name: 'client' }] });
    expect(noRole.status, noRole.text).toBe(400);
    expect(noRole.body.detail).toMatch(/^fields\[4\]: role must name one of the template's roles: client$/);
    expect((await send(gw, 'GET', `/api/templates/${made[0]}`, { apiKey: acct.apiKey })).body).toMatchObject({
      name: 'Renamed',
      roles: [{ name: 'client' }, { name: 'witness' }],
    });
    expect((await patch(made[0]!, { unknown: 1 })).status).toBe(400);

    // Another owner and the test mode see none of them.
    const other = await createAccount(gw, infra().MAILPIT_URL, { tag: 'templates-other' });
    for (const apiKey of [other.apiKey, testKey]) {
      expect((await send(gw, 'GET', `/api/templates/${made[0]}`, { apiKey })).status).toBe(404);
      const otherDoc = await send(gw, 'GET', `/api/templates/${made[0]}/document`, { apiKey });
      expect(otherDoc.status).toBe(404);
      expect(otherDoc.body.detail).toBe('no such template');
      expect((await patch(made[0]!, { name: 'x' }, apiKey)).status).toBe(404);
      expect((await send(gw, 'DELETE', `/api/templates/${made[0]}`, { apiKey })).status).toBe(404);
      expect(await list(apiKey)).toEqual([]);
    }
    // A test template is found only in test mode.
    const testTpl = await createTemplate(form({ name: 'Sandbox' }), testKey);
    expect(testTpl.status, testTpl.text).toBe(201);
    expect(testTpl.body.test).toBe(true);
    expect((await send(gw, 'GET', `/api/templates/${testTpl.body.id}`, { apiKey: acct.apiKey })).status).toBe(404);
    expect((await list(testKey)).map((i) => i.id)).toEqual([testTpl.body.id]);

    for (const id of made.slice(1))
      expect((await send(gw, 'DELETE', `/api/templates/${id}`, { apiKey: acct.apiKey })).status).toBe(204);
    expect((await send(gw, 'DELETE', `/api/templates/${made[1]}`, { apiKey: acct.apiKey })).status).toBe(404);
    expect((await send(gw, 'GET', `/api/templates/${made[2]}`, { apiKey: acct.apiKey })).status).toBe(404);
    expect((await send(gw, 'GET', '/api/templates/not-an-id', { apiKey: acct.apiKey })).status).toBe(404);
  });

  it('refuses bad transactions from a template with a 400; nothing is created and no quota used', async () => {
    const tpl = await createTemplate(form({ name: 'For bad requests' }));
    expect(tpl.status, tpl.text).toBe(201);
    const path = `/api/templates/${tpl.body.id}/transactions`;
    const b64 = photo.toString('base64');
    const signers = () => [
      { role: 'client', name: 'Ada Lovelace', email: email('ada'), photo: b64 },
      { role: 'witness', name: 'Bob Babbage', email: email('bob'), photo: b64 },
    ];
    const before = { used: await used(), listed: await txCount() };
    const cases: [string, unknown, RegExp][] = [
      ['a role missing', { signers: signers().slice(0, 1) }, /^signers: no signer for the role "witness"$/],
      [
        'an unknown role',
        { signers: [...signers(), { role: 'notary', name: 'N', email: email('n') }] },
        /^signers\[2\]: role "notary" is not one of the template's roles: client, witness$/,
      ],
      [
        'a role twice',
        { signers: [signers()[0], { ...signers()[0], email: email('x') }] },
        /^signers\[1\]: role "client" is given twice$/,
      ],
      [
        'no photo for a face_match role',
        { signers: [signers()[0], { ...signers()[1], photo: undefined }] },
        /signers\[1\] .*photo|signer_photo_1/,
      ],
      [
        'a photo that is not an image',
        { signers: [signers()[0], { ...signers()[1], photo: Buffer.from('not an image').toString('base64') }] },
        /JPEG or PNG/,
      ],
      [
        'a photo that is not base64',
        { signers: [signers()[0], { ...signers()[1], photo: '!!!' }] },
        /^signers\.1\.photo|signers\[1\]\.photo|photo/,
      ],
      ['an invalid e-mail', { signers: [signers()[0], { ...signers()[1], email: 'not-an-email' }] }, /email/],
      [
        'a value for no field',
        { signers: signers(), values: { nope: 'x' } },
        /^values\.nope: there is no such field in the template$/,
      ],
      [
        'a value not in the options',
        { signers: signers(), values: { plan: 'Gold' } },
        /^fields\[2\] \(plan\): must be one of the options: "Basic", "Pro"$/,
      ],
      [
        'a value over max_length',
        { signers: signers(), values: { company: 'x'.repeat(41) } },
        /^fields\[1\] \(company\): must be at most 40 characters$/,
      ],
      ['a prefilled signature', { signers: signers(), values: { client_sig: 'Ada' } }, /a signature field cannot be prefilled/],
    ];
    for (const [name, json, detail] of cases) {
      const r = await send(gw, 'POST', path, { apiKey: acct.apiKey, json });
      expect(r.status, `${name}: ${r.text}`).toBe(400);
      expect(r.body.detail, name).toMatch(detail);
    }
    expect(
      (
        await send(gw, 'POST', '/api/templates/tpl_0000000000nosuch/transactions', {
          apiKey: acct.apiKey,
          json: { signers: signers() },
        })
      ).status,
    ).toBe(404);
    // The test mode does not see a live template.
    expect((await send(gw, 'POST', path, { apiKey: testKey, json: { signers: signers() } })).status).toBe(404);
    expect({ used: await used(), listed: await txCount() }).toEqual(before);

    // A good request, retried under its Idempotency-Key, creates one transaction.
    const json = { signers: signers(), values: { company: 'Analytical Engines' } };
    const headers = { 'Idempotency-Key': `tpl-${randomBytes(6).toString('hex')}` };
    const first = await send(gw, 'POST', path, { apiKey: acct.apiKey, json, headers });
    expect(first.status, first.text).toBe(201);
    const again = await send(gw, 'POST', path, { apiKey: acct.apiKey, json, headers });
    expect(again.status, again.text).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body.id).toBe(first.body.id);
    expect({ used: await used(), listed: await txCount() }).toEqual({ used: before.used + 1, listed: before.listed + 1 });
    // Deleting the template leaves the transaction its own document.
    expect((await send(gw, 'DELETE', `/api/templates/${tpl.body.id}`, { apiKey: acct.apiKey })).status).toBe(204);
    const token = /\/sign\/([A-Za-z0-9_-]+)$/.exec(first.body.sign_url as string)![1]!;
    const doc = await fetch(`${gw}/api/sign/${token}/document`);
    expect(doc.status).toBe(200);
    expect(Buffer.from(await doc.arrayBuffer()).equals(PDF)).toBe(true);
    const fields = (await send(gw, 'GET', `/api/sign/${token}/fields`)).body;
    expect(fields.fields.find((f: { id: string }) => f.id === 'company').value).toBe('Analytical Engines');
  });
  it("done when: two signers fill a template's fields and pass the ceremony; the signed PDF shows each value at its place, validates, lists the values and binds the filled hash", async () => {
    const tpl = await createTemplate(form({ name: 'Two signers' }));
    expect(tpl.status, tpl.text).toBe(201);
    const b64 = photo.toString('base64');
    const who = { client: email('ada'), witness: email('bob') };
    // Listed in another order than the roles: each signer goes to their role.
    const created = await send(gw, 'POST', `/api/templates/${tpl.body.id}/transactions`, {
      apiKey: acct.apiKey,
      json: {
        signers: [
          { role: 'witness', name: 'Bob Babbage', email: who.witness, photo: b64 },
          { role: 'client', name: 'Ada Lovelace', email: who.client, photo: b64 },
        ],
        values: { plan: 'Pro' },
      },
    });
    expect(created.status, created.text).toBe(201);
    const id = created.body.id as number;
    const tokens = [/\/sign\/([A-Za-z0-9_-]+)$/.exec(created.body.sign_url as string)![1]!, await tokenMailedTo(who.witness)];

    // Each signer sees their own fields (the client's plan prefilled), and fills them.
    type View = {
      fields: { id: string; places: { page: number; x: number; y: number; width: number; height: number }[]; value: unknown }[];
    };
    const views = await Promise.all(tokens.map(async (t) => (await send(gw, 'GET', `/api/sign/${t}/fields`)).body as View));
    expect(views[0]!.fields.map((f) => f.id)).toEqual(['client_sig', 'company', 'plan', 'client_name']);
    expect(views[0]!.fields.find((f) => f.id === 'plan')!.value).toBe('Pro');
    expect(views[1]!.fields.map((f) => f.id)).toEqual(['witness_ini', 'witness_note', 'witness_ok']);
    const sig = { png: drawnPng(400, 120, stroke(400, 120)).toString('base64') };
    const filled = [
      await send(gw, 'PUT', `/api/sign/${tokens[0]}/fields`, {
        json: { values: { company: 'Analytical Engines' }, signature: sig },
      }),
      await send(gw, 'PUT', `/api/sign/${tokens[1]}/fields`, {
        json: { values: { witness_note: 'Seen in person', witness_ok: true }, initials: { typed: 'BB' } },
      }),
    ];
    for (const r of filled) expect(r.status, r.text).toBe(200);

    // Both pass the ceremony with the corpus capture (rendered for the seed's predicted draw).
    const ip = { 'x-forwarded-for': '10.77.0.3', 'user-agent': 'SignetE2E/1.0 (templates)' };
    for (const [signer, token] of tokens.entries()) {
      const consent = await send(gw, 'POST', `/api/sign/${token}/consent`, {
        headers: ip,
        json: { consent_text_version: 'consent-v1' },
      });
      expect(consent.status, consent.text).toBe(201);
      // A 503 (an upstream busy on this loaded machine: 'retry shortly') is retried as a client would.
      let cap: Awaited<ReturnType<typeof submitPredictedCapture>> | undefined;
      for (let i = 0; i < 3 && (!cap || cap.status === 503); i++) {
        if (cap) await new Promise((r) => setTimeout(r, 5000));
        cap = await submitPredictedCapture({
          gateway: (method, path, init) => send(gw, method, path, init),
          id,
          token,
          signer,
          seed: SEED,
          dir: join(dir, `signer-${signer}-${i}`),
          headers: ip,
        });
      }
      expect(cap!.status, cap!.text).toBeLessThan(300);
    }
    const detail = await eventually(
      async () => {
        const r = await send(gw, 'GET', `/api/transactions/${id}`, { apiKey: acct.apiKey });
        const failed = (r.body.events as { type: string }[]).some((e) => e.type === 'verdict_failed');
        return r.body.status === 'ledger_issued' || r.body.status === 'failed' || failed ? r.body : undefined;
      },
      300_000,
      1000,
    );
    expect(detail.status, `the verdict did not pass: ${JSON.stringify(detail)}`).toBe('ledger_issued');
    // The transaction's audit trail lists the values each signer filled.
    const trail = (detail.events as { type: string; detail: string }[])
      .filter((e) => e.type === 'fields_submitted')
      .map((e) => e.detail);
    expect(trail).toEqual([
      expect.stringMatching(
        new RegExp(`^${who.client} filled their fields: company="Analytical Engines", signature=drawn sha256:[0-9a-f]{16}$`),
      ),
      `${who.witness} filled their fields: witness_note="Seen in person", witness_ok=true, initials=typed "BB"`,
    ]);

    const signed = await eventually(
      async () => {
        const r = await fetch(`${gw}/api/transactions/${id}/signed.pdf`, { headers: { 'x-api-key': acct.apiKey } });
        return r.status === 200 ? Buffer.from(await r.arrayBuffer()) : undefined;
      },
      120_000,
      500,
    );
    const file = join(dir, 'signed.pdf');
    const original = join(dir, 'original.pdf');
    writeFileSync(file, signed);
    writeFileSync(original, PDF);
    const v = await pyhankoValidate(file, join(pki, 'certs/root.pem'));
    expect(v.code, v.out).toBe(0);
    expect(v.out).toContain('The signature is judged VALID');

    // Each value at its place: ink inside every field's box, more than the original has there.
    const ink = inkMeter(dir);
    for (const f of [...views[0]!.fields, ...views[1]!.fields])
      for (const p of f.places) {
        const box: [number, number, number, number] = [p.x, 792 - p.y - p.height, p.x + p.width, 792 - p.y];
        const [after, before] = [ink(file, p.page, box), ink(original, p.page, box)];
        expect(after, `${f.id} on page ${p.page}`).toBeGreaterThan(before + 0.005);
      }
    const text = await pdfText(file);
    for (const value of ['Analytical Engines', 'Pro', 'Ada Lovelace', 'Seen in person', 'BB']) expect(text).toContain(value);

    // The certificate binds the filled document: revision 1 (the template's PDF) plus the fields' update.
    expect(signed.subarray(0, PDF.length).equals(PDF)).toBe(true);
    const cert = JSON.parse(await extractCertJson(file)) as {
      certificate: { document_sha256: string; filled_document_sha256?: string };
    };
    expect(cert.certificate.document_sha256).toBe(createHash('sha256').update(PDF).digest('hex'));
    const eof = signed.indexOf('%%EOF', PDF.length) + 5;
    const prefixes = [eof, eof + 1, eof + 2].map((end) => createHash('sha256').update(signed.subarray(0, end)).digest('hex'));
    expect(prefixes).toContain(cert.certificate.filled_document_sha256);
    // The signed PDF's audit trail names the filled document's hash and lists each signer's values.
    expect(text).toContain('Filled SHA-256');
    expect(text).toContain(cert.certificate.filled_document_sha256);
    expect(text.match(/Fields filled/g)?.length).toBe(2);
    expect(text).toContain('witness_ok: ticked');
  }, 900_000);
});
