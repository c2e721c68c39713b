/**
 * Roles on every route (issue 34 item 1): the served OpenAPI document is walked, so a new operation
 * is covered without touching this file. Every authenticated operation declares `x-signet-role`; for
 * each one and each role (viewer, sender, admin, owner, as members of one organisation signed in
 * through an accepted invitation) a well-formed request is answered 403 naming the role when the
 * role is below the operation's, and otherwise never 403 for the role and never 5xx. Operations on
 * one resource are also sent with another organisation's transaction and webhook endpoint: never a
 * 2xx. A read-scoped key of an admin is refused every operation above viewer.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import type { Part } from '../fixtures/multipart.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';
import { send, type Reply } from '../support/http.js';
import { addMember, csrfOf, keyOf, type Role } from '../support/members.js';

type Schema = Record<string, any>;
type Parameter = { name: string; in: 'path' | 'query' | 'header' | 'cookie'; required?: boolean; schema?: Schema };
type Operation = {
  operationId?: string;
  security?: Record<string, string[]>[];
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  'x-signet-role'?: Role;
};
type Doc = { paths: Record<string, Record<string, Operation>>; components?: { schemas?: Record<string, Schema> } };
type Op = { method: string; path: string; op: Operation; label: string };

const ROLES: Role[] = ['viewer', 'sender', 'admin', 'owner'];
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const ROLE_REFUSAL = /needs the (viewer|sender|admin|owner) role/;
const FUTURE = new Date(Date.now() + 7 * 86_400_000).toISOString();

function resolve(doc: Doc, s: Schema | undefined): Schema {
  let cur = s ?? {};
  for (let i = 0; cur.$ref && i < 10; i++) cur = doc.components?.schemas?.[String(cur.$ref).split('/').pop()!] ?? {};
  return cur;
}

/** A well-formed value of a schema: enough for the request to pass validation where it can. */
function sample(doc: Doc, raw: Schema | undefined, name = '', depth = 0): unknown {
  const s = resolve(doc, raw);
  if (depth > 8) return 'x';
  if ('const' in s) return s.const;
  if (Array.isArray(s.enum)) return s.enum[0];
  if (s.example !== undefined) return s.example;
  const alt = (s.anyOf ?? s.oneOf) as Schema[] | undefined;
  if (alt?.length) return sample(doc, alt.find((a) => resolve(doc, a).type !== 'null') ?? alt[0], name, depth + 1);
  if (Array.isArray(s.allOf) && s.allOf.length) return sample(doc, s.allOf[0], name, depth + 1);
  const type = Array.isArray(s.type) ? s.type.find((t: string) => t !== 'null') : s.type;
  if (type === 'object' || (!type && s.properties)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries((s.properties ?? {}) as Record<string, Schema>)) out[k] = sample(doc, v, k, depth + 1);
    return out;
  }
  if (type === 'array') return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sample(doc, s.items, name, depth + 1));
  if (type === 'integer' || type === 'number') return Math.max(1, s.minimum ?? 1);
  if (type === 'boolean') return true;
  if (s.format === 'email' || /email/.test(name)) return `roles-${randomBytes(3).toString('hex')}@example.com`;
  if (s.format === 'date-time' || name === 'expires_at') return FUTURE;
  if (s.format === 'uri' || name === 'url') return 'http://127.0.0.1:9/roles';
  return 'x'.repeat(Math.max(1, s.minLength ?? 1));
}

const ip = () => ({ 'x-forwarded-for': `10.35.${Math.floor(Math.random() * 250)}.${1 + Math.floor(Math.random() * 250)}` });

function operationsOf(doc: Doc): Op[] {
  const out: Op[] = [];
  for (const [path, item] of Object.entries(doc.paths))
    for (const [method, op] of Object.entries(item))
      if (METHODS.includes(method))
        out.push({ method, path, op, label: `${method.toUpperCase()} ${path} (${op.operationId ?? 'no operationId'})` });
  return out;
}
const isPublic = (op: Operation) => Array.isArray(op.security) && op.security.length === 0;

describe('roles on every operation of the OpenAPI document', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let doc: Doc;
  let owner: Account;
  let stranger: Account;
  const tokens = {} as Record<Role, string>;
  const foreign: Record<string, string> = {};

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'ledger', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'ROLE',
        AUTH_RATE_LIMIT_SCALE: '1000',
        REFERENCE_FACE_CHECK: 'off',
        // The walk's webhook endpoints point at a closed loopback port.
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
      },
    });
    [owner, stranger] = await Promise.all([
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'roles-owner' }),
      createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'roles-stranger' }),
    ]);
    tokens.owner = owner.token;
    for (const role of ['viewer', 'sender', 'admin'] as const)
      tokens[role] = (await addMember(stack.gatewayUrl, owner.token, role)).token;
    // Another organisation's resources, which no member here may reach.
    const tx = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: stranger.apiKey,
      parts: [
        { name: 'signer_name', value: 'Other Signer' },
        { name: 'signer_email', value: 'other.signer@example.com' },
        { name: 'document', data: tinyPdf(randomUUID()), filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(tx.status, tx.text).toBe(201);
    const hook = await send(stack.gatewayUrl, 'POST', '/api/webhook-endpoints', {
      apiKey: stranger.apiKey,
      json: { url: 'http://127.0.0.1:9/stranger', event_types: ['transaction.created'] },
    });
    expect(hook.status, hook.text).toBe(201);
    foreign.transaction = String(tx.body.id);
    foreign.endpoint = String(hook.body.id);
    doc = (await send(stack.gatewayUrl, 'GET', '/api/openapi.json')).body as Doc;
  }, 240_000);
  afterAll(async () => {
    await stack?.stop();
  });

  /** One well-formed request of an operation with a credential; path ids from `ids`, else samples. */
  async function call(o: Op, auth: { token?: string; apiKey?: string }, ids: Record<string, string> = {}): Promise<Reply> {
    const params = o.op.parameters ?? [];
    const url = o.path.replace(/\{(\w+)\}/g, (_m, name: string) => {
      const p = params.find((x) => x.in === 'path' && x.name === name);
      return encodeURIComponent(ids[name] ?? String(sample(doc, p?.schema, name)));
    });
    const query = new URLSearchParams();
    for (const p of params.filter((x) => x.in === 'query' && (x.required || x.name === 'csrf')))
      query.set(
        p.name,
        p.name === 'csrf' && auth.token ? await csrfOf(stack.gatewayUrl, auth.token) : String(sample(doc, p.schema, p.name)),
      );
    const json = o.op.requestBody?.content?.['application/json']?.schema;
    const form = resolve(doc, o.op.requestBody?.content?.['multipart/form-data']?.schema);
    let body: Parameters<typeof send>[3] = {};
    if (json) body = { json: sample(doc, json) };
    else if (form.properties) {
      const parts: Part[] = Object.entries(form.properties as Record<string, Schema>).map(([name, s]) =>
        resolve(doc, s).format !== 'binary'
          ? { name, value: String(sample(doc, s, name)) }
          : name === 'document'
            ? { name, filename: 'c.pdf', contentType: 'application/pdf', data: tinyPdf(randomUUID()) }
            : { name, filename: `${name}.png`, contentType: 'image/png', data: pngPhoto() },
      );
      body = { parts };
    }
    const headers = { ...ip(), ...(o.path.includes('/test/') && auth.token ? { 'signet-mode': 'test' } : {}) };
    const qs = query.toString();
    return send(stack.gatewayUrl, o.method.toUpperCase(), `${url}${qs ? `?${qs}` : ''}`, { ...body, ...auth, headers });
  }

  it('every authenticated operation declares the role it needs', () => {
    const missing = operationsOf(doc)
      .filter((o) => !isPublic(o.op) && !ROLES.includes(o.op['x-signet-role'] as Role))
      .map((o) => o.label);
    expect(missing, missing.join('\n')).toEqual([]);
    const roles = new Set(operationsOf(doc).map((o) => o.op['x-signet-role']));
    expect([...roles].filter(Boolean).sort()).toEqual(expect.arrayContaining(['admin', 'sender', 'viewer']));
  });

  it('each role: allowed, or 403 naming the role when below the operation’s; never 5xx', async () => {
    const wrong: string[] = [];
    const ops = operationsOf(doc).filter((o) => !isPublic(o.op) && o.op['x-signet-role']);
    for (const o of ops) {
      const need = ROLES.indexOf(o.op['x-signet-role']!);
      for (const role of ROLES) {
        const r = await call(o, { token: tokens[role] });
        const refused = r.status === 403 && ROLE_REFUSAL.test(String(r.body?.detail));
        const below = ROLES.indexOf(role) < need;
        if (r.status >= 500) wrong.push(`${o.label} as ${role} → ${r.status} ${r.text.slice(0, 160)}`);
        else if (below && !refused)
          wrong.push(`${o.label} as ${role}: expected the role's 403, got ${r.status} ${r.text.slice(0, 160)}`);
        else if (!below && refused) wrong.push(`${o.label} as ${role}: refused for the role ${r.text.slice(0, 160)}`);
      }
    }
    process.stderr.write(`roles walk: ${ops.length} operations × ${ROLES.length} roles\n`);
    expect(wrong, wrong.join('\n')).toEqual([]);
  }, 300_000);

  it('another organisation’s transaction or webhook endpoint is never answered 2xx, for any role', async () => {
    const wrong: string[] = [];
    const ops = operationsOf(doc).filter(
      (o) => !isPublic(o.op) && /^\/api\/(transactions|webhook-endpoints)\/\{id\}/.test(o.path),
    );
    expect(ops.length).toBeGreaterThan(5);
    for (const o of ops) {
      const id = o.path.startsWith('/api/webhook-endpoints') ? foreign.endpoint! : foreign.transaction!;
      for (const role of ROLES) {
        const r = await call(o, { token: tokens[role] }, { id });
        if (r.status < 400 || r.status >= 500)
          wrong.push(`${o.label} as ${role} on another organisation's → ${r.status} ${r.text.slice(0, 160)}`);
      }
    }
    expect(wrong, wrong.join('\n')).toEqual([]);
    // And the stranger's transaction is still there, untouched.
    const still = await send(stack.gatewayUrl, 'GET', `/api/transactions/${foreign.transaction}`, { apiKey: stranger.apiKey });
    expect(still.status).toBe(200);
  }, 300_000);

  it('a read-scoped key of an admin is refused every operation above viewer, and allowed the rest', async () => {
    const k = await keyOf(stack.gatewayUrl, tokens.admin, { scopes: ['read'] });
    expect(k.status, k.text).toBe(201);
    const wrong: string[] = [];
    const ops = operationsOf(doc).filter(
      (o) => !isPublic(o.op) && (o.op.security ?? [{ apiKey: [] }]).some((s) => 'apiKey' in s) && !o.path.includes('/test/'),
    );
    for (const o of ops) {
      const r = await call(o, { apiKey: k.key });
      const refused = r.status === 403 && ROLE_REFUSAL.test(String(r.body?.detail));
      const above = o.op['x-signet-role'] !== 'viewer';
      if (r.status >= 500) wrong.push(`${o.label} → ${r.status}`);
      else if (above !== refused) wrong.push(`${o.label} with a read key → ${r.status} ${r.text.slice(0, 160)}`);
    }
    expect(wrong, wrong.join('\n')).toEqual([]);
  }, 180_000);
});
