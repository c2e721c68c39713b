/**
 * Members of an organisation made through the real routes (issue 34 item 1): the owner invites an
 * address, the invitation mail's link is read from Mailpit, and the invitee joins with it.
 */
import { randomBytes } from 'node:crypto';
import { eventually } from '../harness/eventually.js';
import { infra } from '../harness/services.js';
import { send } from './http.js';

export type Role = 'viewer' | 'sender' | 'admin' | 'owner';
export type Member = { userId: string; email: string; token: string; role: Role };

const ip = () => {
  const b = randomBytes(3);
  return { 'x-forwarded-for': `10.${b[0]}.${b[1]}.${b[2]}` };
};

/** The CSRF token of a session, for /api/admin/* mutations. */
export async function csrfOf(gatewayUrl: string, token: string): Promise<string> {
  const r = await send(gatewayUrl, 'GET', '/api/admin/csrf', { token });
  if (r.status !== 200) throw new Error(`csrf → ${r.status} ${r.text}`);
  return r.body.csrf as string;
}

/** The invitation code in the newest mail to an address (the link ends in #code=<code>). */
export async function invitationCode(address: string): Promise<string> {
  return eventually(async () => {
    const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
    const list = ((await res.json()) as { messages?: { ID: string }[] }).messages ?? [];
    if (!list[0]) return undefined;
    const msg = (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${list[0].ID}`)).json()) as { Text: string };
    return /#code=([A-Za-z0-9_-]+)/.exec(msg.Text)?.[1];
  });
}

/** Invites a fresh address with a role as `inviterToken` and joins with the mailed code. */
export async function addMember(gatewayUrl: string, inviterToken: string, role: Role, tag: string = role): Promise<Member> {
  const email = `${tag}-${randomBytes(5).toString('hex')}@example.com`;
  const csrf = await csrfOf(gatewayUrl, inviterToken);
  const inv = await send(gatewayUrl, 'POST', `/api/admin/members/invitations?csrf=${encodeURIComponent(csrf)}`, {
    token: inviterToken,
    json: { email, role },
  });
  if (inv.status !== 201) throw new Error(`invite → ${inv.status} ${inv.text}`);
  const code = await invitationCode(email);
  const joined = await send(gatewayUrl, 'POST', '/api/auth/invitations/accept', {
    headers: ip(),
    json: { code, name: `A ${role}`, password: `pw-${randomBytes(12).toString('base64url')}` },
  });
  if (joined.status !== 200) throw new Error(`accept → ${joined.status} ${joined.text}`);
  const me = await send(gatewayUrl, 'POST', '/api/auth/me', { token: joined.body.token as string });
  return { userId: me.body.user_id as string, email, token: joined.body.token as string, role };
}

/** An API key of a member, with scopes and an expiry when given. */
export async function keyOf(
  gatewayUrl: string,
  token: string,
  opts: { scopes?: string[]; expires_at?: string; mode?: 'live' | 'test' } = {},
): Promise<{ status: number; key?: string; body: any; text: string }> {
  const csrf = await csrfOf(gatewayUrl, token);
  const r = await send(gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
    token,
    json: { name: 'member key', ...opts },
  });
  return { status: r.status, key: r.body?.key as string | undefined, body: r.body, text: r.text };
}
