/**
 * A verified account made through the real gateway routes (register → code from Mailpit → verify →
 * onboarding → CSRF → API key), for tests of authenticated areas. Needs identity and the gateway.
 */
import { randomBytes } from 'node:crypto';

/** Polls until fn gives a truthy value (standalone: usable from benchmarks outside vitest). */
async function eventually<T>(fn: () => Promise<T | undefined | null | false>, timeoutMs = 15_000): Promise<T> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`condition not met in ${timeoutMs} ms`);
}

export type Account = { userId: string; email: string; orgName: string; token: string; apiKey: string };

async function call(base: string, method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: body !== undefined ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  let json: Record<string, unknown> = {};
  try {
    if (text) json = JSON.parse(text) as Record<string, unknown>;
  } catch {
    // Name what answered: the gateway only ever answers JSON, so this is some other server on the port.
    throw new Error(
      `${method} ${base}${path} → ${res.status} ${res.headers.get('content-type')}, not JSON: ${text.slice(0, 300)}`,
    );
  }
  if (!res.ok) throw new Error(`${method} ${path} → ${res.status} ${text}`);
  return json;
}

async function codeFor(mailpit: string, address: string): Promise<string> {
  return eventually(async () => {
    const res = await fetch(`${mailpit}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
    const list = ((await res.json()) as { messages?: { ID: string }[] }).messages ?? [];
    if (!list[0]) return undefined;
    const msg = (await (await fetch(`${mailpit}/api/v1/message/${list[0].ID}`)).json()) as { Text: string };
    return /\b(\d{6})\b/.exec(msg.Text)?.[1];
  });
}

export async function createAccount(
  gatewayUrl: string,
  mailpitUrl: string,
  opts: { orgName?: string; tag?: string } = {},
): Promise<Account> {
  const email = `${opts.tag ?? 'sender'}-${randomBytes(5).toString('hex')}@example.com`;
  const password = `pw-${randomBytes(12).toString('base64url')}`;
  const orgName = opts.orgName ?? 'Acme Ltd';
  // A unique client address per account, so sign-up rate limits of parallel tests do not collide.
  const b = randomBytes(3);
  const ip = { 'x-forwarded-for': `10.${b[0]}.${b[1]}.${b[2]}` };
  await call(gatewayUrl, 'POST', '/api/auth/register', { email, password, name: 'Test Sender' }, ip);
  const code = await codeFor(mailpitUrl, email);
  const verified = await call(gatewayUrl, 'POST', '/api/auth/verify-email', { email, code }, ip);
  const session = await call(
    gatewayUrl,
    'POST',
    '/api/auth/onboarding',
    { onboarding_token: verified.onboarding_token, org_name: orgName },
    ip,
  );
  const token = session.token as string;
  const auth = { authorization: `Bearer ${token}` };
  const me = await call(gatewayUrl, 'POST', '/api/auth/me', undefined, auth);
  const csrf = (await call(gatewayUrl, 'GET', '/api/admin/csrf', undefined, auth)).csrf as string;
  const key = await call(gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, { name: 'tests' }, auth);
  return { userId: me.user_id as string, email, orgName, token, apiKey: key.key as string };
}
