/** Helpers for the identity end-to-end tests: HTTP calls through the gateway, Mailpit, TOTP. */
import { createHmac, randomBytes } from 'node:crypto';
import { eventually, infra } from '../harness/services.js';

export type Call = {
  body?: unknown;
  raw?: string;
  token?: string;
  apiKey?: string;
  /** Sent as X-Forwarded-For: the test client is on loopback, a trusted proxy by default. */
  ip?: string;
  query?: Record<string, string>;
};

export type Reply = { status: number; body: any; headers: Headers };

export function client(baseUrl: string) {
  return async (method: string, path: string, c: Call = {}): Promise<Reply> => {
    const headers: Record<string, string> = {};
    if (c.body !== undefined || c.raw !== undefined) headers['content-type'] = 'application/json';
    if (c.token) headers.authorization = `Bearer ${c.token}`;
    if (c.apiKey) headers['x-api-key'] = c.apiKey;
    if (c.ip) headers['x-forwarded-for'] = c.ip;
    const q = c.query ? `?${new URLSearchParams(c.query).toString()}` : '';
    const res = await fetch(`${baseUrl}${path}${q}`, {
      method,
      headers,
      body: c.raw ?? (c.body !== undefined ? JSON.stringify(c.body) : undefined),
    });
    const text = await res.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      /* not JSON */
    }
    return { status: res.status, body, headers: res.headers };
  };
}

/** A fresh address and client IP per test, so tests share neither mailboxes nor rate-limit counters. */
export function uniqueEmail(tag: string) {
  return `${tag}-${randomBytes(4).toString('hex')}@example.com`;
}
export function uniqueIp() {
  const b = randomBytes(3);
  return `10.${b[0]}.${b[1]}.${b[2]}`;
}

type MailSummary = { ID: string; Subject: string; Created: string };

/** Every message Mailpit holds for one recipient, newest first. */
export async function mailsTo(address: string): Promise<MailSummary[]> {
  const res = await fetch(`${infra().MAILPIT_URL}/api/v1/search?query=${encodeURIComponent(`to:"${address}"`)}`);
  if (!res.ok) throw new Error(`mailpit search ${res.status}`);
  return ((await res.json()) as { messages: MailSummary[] }).messages ?? [];
}

/** Waits for the n-th mail to an address and returns the 6-digit code in its text body. */
export async function codeFromMail(address: string, nth = 1): Promise<string> {
  const mails = await eventually(async () => {
    const m = await mailsTo(address);
    return m.length >= nth ? m : undefined;
  });
  const newest = mails[0]!;
  const msg = (await (await fetch(`${infra().MAILPIT_URL}/api/v1/message/${newest.ID}`)).json()) as { Text: string };
  const code = /\b(\d{6})\b/.exec(msg.Text)?.[1];
  if (!code) throw new Error('no code in the mail');
  return code;
}

// An independent RFC 6238 implementation (SHA-1, 6 digits, 30 s), as an authenticator app computes it.
function base32Decode(s: string): Buffer {
  const A = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const ch of s.replace(/=+$/, '').toUpperCase()) bits += A.indexOf(ch).toString(2).padStart(5, '0');
  const bytes: number[] = [];
  for (let i = 0; i + 8 <= bits.length; i += 8) bytes.push(parseInt(bits.slice(i, i + 8), 2));
  return Buffer.from(bytes);
}
export function totp(secret: string, atMs = Date.now()): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(Math.floor(atMs / 30_000)));
  const mac = createHmac('sha1', base32Decode(secret)).update(counter).digest();
  const o = mac[19]! & 0xf;
  return String((mac.readUInt32BE(o) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}
