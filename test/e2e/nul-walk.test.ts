/**
 * Issue 31 item 2: a NUL character in any text a client sends is a 4xx, never a 5xx (PostgreSQL under
 * FerretDB refuses U+0000 outright, which answered 500 on five routes). The walk is generated from
 * the served OpenAPI document, so a new operation is covered without touching this file: for every
 * operation, every path and query parameter and every string of its JSON or multipart body (nested
 * objects, list items, map values and keys) is sent once with a NUL in it, the rest of the request
 * well-formed and authenticated as the operation asks, on real resources (a transaction, its signing
 * link and certificate, a webhook endpoint) so the request reaches the code that reads the field.
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import type { Part } from '../fixtures/multipart.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';
import { send, type Reply } from '../support/http.js';

type Schema = Record<string, any>;
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Schema };
type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
};
/** One place to put the NUL: a parameter, or a path into the body (a key of an object: `key` set). */
type Target = { where: 'path' | 'query' | 'body' | 'part'; at: (string | number)[]; key?: boolean };
type Case = { label: string; method: string; op: Operation; path: string; target: Target };

const NUL = '\u0000';
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** A schema with its $ref followed (components/schemas only, as the document uses). */
function resolve(doc: Doc, s: Schema | undefined): Schema {
  let cur = s ?? {};
  for (let i = 0; cur.$ref && i < 10; i++) cur = doc.components?.schemas?.[String(cur.$ref).split('/').pop()!] ?? {};
  return cur;
}

const FUTURE = new Date(Date.now() + 7 * 86_400_000).toISOString();

/** A well-formed value of a schema: enough for the request to reach the field the NUL is in. */
function sample(doc: Doc, raw: Schema | undefined, name = '', depth = 0): unknown {
  const s = resolve(doc, raw);
  if (depth > 8) return 'x';
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.example !== undefined) return s.example;
  if (Array.isArray(s.examples) && s.examples.length) return s.examples[0];
  const alt = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alt?.length) return sample(doc, alt.find((a) => resolve(doc, a).type !== 'null') ?? alt[0], name, depth + 1);
  if (Array.isArray(s.allOf) && s.allOf.length) return sample(doc, s.allOf[0], name, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'object' || (!type && s.properties)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) out[k] = sample(doc, v, k, depth + 1);
    if (!s.properties && s.additionalProperties !== false)
      out.k = sample(doc, s.additionalProperties === true ? {} : s.additionalProperties, 'k', depth + 1);
    return out;
  }
  if (type === 'array') return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(doc, s.items, name, depth + 1));
  if (type === 'integer' || type === 'number') return Math.max(1, s.minimum ?? 1);
  if (type === 'boolean') return true;
  if (s.format === 'email' || /email/.test(name)) return `nul-walk-${randomBytes(3).toString('hex')}@example.com`;
  if (s.format === 'date-time' || name === 'expires_at') return FUTURE;
  if (s.format === 'uri' || name === 'url') return 'http://127.0.0.1:9/nul-walk';
  return 'x'.repeat(Math.max(1, s.minLength ?? 1));
}

/** Every string in a sample value (and every key of a free-form object), as paths. */
function stringTargets(v: unknown, at: (string | number)[] = []): Target[] {
  if (typeof v === 'string') return [{ where: 'body', at }];
  if (Array.isArray(v)) return v.flatMap((x, i) => stringTargets(x, [...at, i]));
  if (v && typeof v === 'object')
    return Object.entries(v).flatMap(([k, x]) => [
      ...(k === 'k' ? [{ where: 'body' as const, at: [...at, k], key: true }] : []),
      ...stringTargets(x, [...at, k]),
    ]);
  return [];
}

/** The value with a NUL put into the string (or key) at the target's path. */
function withNul(v: unknown, t: Target): unknown {
  const copy = structuredClone(v) as any;
  const parent = t.at.slice(0, -1).reduce((o, k) => o[k], copy);
  const last = t.at[t.at.length - 1]!;
  if (t.key) {
    parent[`${String(last)}${NUL}`] = parent[last];
    delete parent[last];
  } else parent[last] = `${String(parent[last])}${NUL}`;
  return copy;
}

const jsonSchemaOf = (op: Operation) => op.requestBody?.content?.['application/json']?.schema;
const formSchemaOf = (op: Operation) => op.requestBody?.content?.['multipart/form-data']?.schema;

/** Every NUL case of the document: one per parameter and per string of the body. */
function casesOf(doc: Doc): Case[] {
  const cases: Case[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item)) {
      if (!METHODS.includes(method)) continue;
      const label = `${method.toUpperCase()} ${path} (${op.operationId ?? 'no operationId'})`;
      const add = (target: Target, what: string) => cases.push({ label: `${label} ${what}`, method, op, path, target });
      for (const p of op.parameters ?? [])
        if (p.in === 'path' || p.in === 'query') add({ where: p.in, at: [p.name] }, `${p.in} ${p.name}`);
      const json = jsonSchemaOf(op);
      if (json) for (const t of stringTargets(sample(doc, json))) add(t, `body ${t.at.join('.')}${t.key ? ' (key)' : ''}`);
      const form = resolve(doc, formSchemaOf(op));
      for (const [name, s] of Object.entries((form.properties ?? {}) as Record<string, Schema>))
        if (resolve(doc, s).format !== 'binary') add({ where: 'part', at: [name] }, `part ${name}`);
    }
  return cases;
}

describe('a NUL in any text of any operation is a 4xx (the OpenAPI document walked)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let doc: Doc;
  let acct: Account;
  let testKey: string;
  let csrf: string;
  const known: Record<string, string> = {};

  /** A fresh client address per request: the per-address rate limits stay out of the way. */
  const ip = () => ({ 'x-forwarded-for': `10.31.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'NUL',
        AUTH_RATE_LIMIT_SCALE: '1000',
        // The walk's webhook endpoint points at a closed loopback port.
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'nulwalk' });
    const session = { token: acct.token };
    csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', session)).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...session,
      json: { name: 'nul walk test', mode: 'test' },
    });
    testKey = key.body.key as string;
    const pdf = tinyPdf(randomUUID());
    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        { name: 'signer_name', value: 'Nul Walker' },
        { name: 'signer_email', value: 'nul.walker@example.com' },
        { name: 'document', data: pdf, filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    const endpoint = await send(stack.gatewayUrl, 'POST', '/api/webhook-endpoints', {
      apiKey: acct.apiKey,
      json: { url: 'http://127.0.0.1:9/nul-walk', event_types: ['transaction.created'] },
    });
    expect(endpoint.status, endpoint.text).toBe(201);
    Object.assign(known, {
      id: String(created.body.id),
      token: created.body.token as string,
      reference: created.body.reference as string,
      label: created.body.reference as string,
      hash: createHash('sha256').update(pdf).digest('hex').slice(0, 16),
      csrf,
    });
    known.endpoint = endpoint.body.id as string;
    doc = (await send(stack.gatewayUrl, 'GET', '/api/openapi.json')).body as Doc;
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
  });

  /** A path parameter's value: a real resource where the walk has one, else a well-formed sample. */
  const paramValue = (path: string, p: Parameter): string => {
    if (p.name === 'id' && path.startsWith('/api/webhook-endpoints')) return known.endpoint!;
    if (p.name === 'provider') return stack.env.WEBHOOK_PROVIDER ?? 'dodo';
    if (p.name === 'delivery_id') return `wd_${'A'.repeat(27)}`;
    return known[p.name] ?? String(sample(doc, p.schema, p.name));
  };

  /** Sends one case: the operation's request with the NUL at its target, authenticated as the operation asks. */
  async function sendCase(c: Case): Promise<Reply> {
    const { op, target } = c;
    const params = op.parameters ?? [];
    const nulIf = (where: Target['where'], name: string, v: string) =>
      target.where === where && target.at[0] === name ? `${v}${NUL}` : v;
    const url = c.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const p = params.find((x) => x.in === 'path' && x.name === name) ?? { name, in: 'path' as const };
      return encodeURIComponent(nulIf('path', name, paramValue(c.path, p)));
    });
    const query = new URLSearchParams();
    for (const p of params.filter((x) => x.in === 'query'))
      if (p.required || p.name === 'csrf' || (target.where === 'query' && target.at[0] === p.name))
        query.set(p.name, nulIf('query', p.name, p.name === 'csrf' ? csrf : String(sample(doc, p.schema, p.name))));
    const security = op.security ?? [{ apiKey: [] }];
    const auth =
      security.length === 0
        ? {}
        : c.path.includes('/test/')
          ? { apiKey: testKey }
          : security.some((s) => 'apiKey' in s)
            ? { apiKey: acct.apiKey }
            : { token: acct.token };
    const json = jsonSchemaOf(op);
    const form = resolve(doc, formSchemaOf(op));
    let body: Parameters<typeof send>[3] = {};
    if (json) {
      const value = sample(doc, json);
      body = { json: target.where === 'body' ? withNul(value, target) : value };
    } else if (form.properties) {
      const entries = Object.entries(form.properties as Record<string, Schema>);
      const text: Part[] = entries
        .filter(([, s]) => resolve(doc, s).format !== 'binary')
        .map(([name, s]) => ({ name, value: nulIf('part', name, String(sample(doc, s, name))) }));
      const files: Part[] = entries
        .filter(([, s]) => resolve(doc, s).format === 'binary')
        .map(([name]) =>
          name === 'document'
            ? { name, filename: 'c.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) }
            : { name, filename: `${name}.png`, contentType: 'image/png', data: pngPhoto() },
        );
      body = { parts: [...text, ...files] };
    }
    const qs = query.toString();
    return send(stack.gatewayUrl, c.method.toUpperCase(), `${url}${qs ? `?${qs}` : ''}`, {
      ...body,
      ...auth,
      headers: ip(),
    });
  }

  it('covers every operation of the document that takes text, and answers each NUL with a 4xx and a detail', async () => {
    const cases = casesOf(doc);
    const operations = new Set(cases.map((c) => `${c.method} ${c.path}`));
    const all = Object.values(doc.paths).reduce((n, item) => n + Object.keys(item).filter((m) => METHODS.includes(m)).length, 0);
    // Nearly every operation takes a path parameter, a query or a body: the walk is not silently empty.
    expect(operations.size).toBeGreaterThan(all * 0.6);
    const wrong: string[] = [];
    let refused400 = 0;
    for (const c of cases) {
      const r = await sendCase(c);
      if (r.status === 400) refused400++;
      if (r.status < 400 || r.status >= 500 || typeof r.body?.detail !== 'string')
        wrong.push(`${c.label} → ${r.status} ${r.text.slice(0, 200)}`);
    }
    process.stderr.write(
      `nul walk: ${cases.length} cases over ${operations.size}/${all} operations, ${refused400} answered 400\n`,
    );
    expect(wrong, wrong.join('\n')).toEqual([]);
  }, 240_000);

  it('the five routes that answered 500 answer 400 naming the field, and nothing changed', async () => {
    const reg = await send(stack.gatewayUrl, 'POST', '/api/auth/register', {
      headers: ip(),
      json: { email: `nul-${randomBytes(3).toString('hex')}@example.com`, password: 'long enough password', name: `Ada${NUL}` },
    });
    expect([reg.status, reg.body.detail]).toEqual([400, 'name: must not contain control characters (U+0000)']);

    const keysBefore = (await send(stack.gatewayUrl, 'GET', '/api/admin/api-keys', { token: acct.token })).body;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      token: acct.token,
      json: { name: `ci${NUL}` },
    });
    expect([key.status, key.body.detail]).toEqual([400, 'name: must not contain control characters (U+0000)']);
    expect((await send(stack.gatewayUrl, 'GET', '/api/admin/api-keys', { token: acct.token })).body).toEqual(keysBefore);

    const hook = await send(stack.gatewayUrl, 'PATCH', `/api/webhook-endpoints/${known.endpoint}`, {
      apiKey: acct.apiKey,
      json: { description: `ops${NUL}` },
    });
    expect([hook.status, hook.body.detail]).toEqual([400, 'description: must not contain control characters (U+0000)']);
    const ep = await send(stack.gatewayUrl, 'GET', `/api/webhook-endpoints/${known.endpoint}`, { apiKey: acct.apiKey });
    expect(ep.body.description).toBe('');

    const forensic = await send(stack.gatewayUrl, 'POST', `/api/sign/${known.token}/forensic`, {
      headers: ip(),
      json: { events: [{ type: 'focus', t: 1, data: { note: `a${NUL}` } }] },
    });
    expect([forensic.status, forensic.body.detail]).toEqual([
      400,
      'events.0.data.note: must not contain control characters (U+0000)',
    ]);

    const decline = await send(stack.gatewayUrl, 'POST', `/api/sign/${known.token}/decline`, {
      headers: ip(),
      json: { reason: `no${NUL}` },
    });
    expect([decline.status, decline.body.detail]).toEqual([400, 'reason: must not contain control characters (U+0000)']);
    const tx = await send(stack.gatewayUrl, 'GET', `/api/transactions/${known.id}`, { apiKey: acct.apiKey });
    expect(tx.body.status).toBe('created');

    // Text inside a text part: the signers list is JSON, whose escaped \u0000 only appears once parsed.
    const parties = JSON.stringify([{ name: `Ada${NUL}`, email: 'ada@example.com', verification: 'liveness_only' }]);
    const listed = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: acct.apiKey,
      parts: [
        { name: 'signers', value: parties },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
      ],
    });
    expect([listed.status, listed.body.detail]).toEqual([400, 'signers[0].name: must not contain control characters (U+0000)']);

    // Each refusal is counted by the part of the request that held it.
    const metrics = await (await fetch(`http://127.0.0.1:${stack.opsPorts.gateway}/metrics`)).text();
    for (const part of ['body', 'path', 'query', 'multipart'])
      expect(metrics, part).toMatch(new RegExp(`signet_gateway_text_refused_total\\{[^}]*part="${part}"[^}]*\\} [1-9]`));

    // Tab and newline are text; the other control characters are not.
    const tabbed = await send(stack.gatewayUrl, 'PATCH', `/api/webhook-endpoints/${known.endpoint}`, {
      apiKey: acct.apiKey,
      json: { description: 'line one\n\tline two' },
    });
    expect(tabbed.status, tabbed.text).toBe(200);
    const escape = await send(stack.gatewayUrl, 'PATCH', `/api/webhook-endpoints/${known.endpoint}`, {
      apiKey: acct.apiKey,
      json: { description: 'bell\u0007' },
    });
    expect([escape.status, escape.body.detail]).toEqual([400, 'description: must not contain control characters (U+0007)']);
  });
});
