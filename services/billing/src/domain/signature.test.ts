import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Webhook } from 'standardwebhooks';
import { createVerifier } from './signature.js';

const secret = `whsec_${randomBytes(24).toString('base64')}`;
const signer = new Webhook(secret);
const verify = createVerifier(secret);
const body = Buffer.from('{"type":"payment.succeeded"}');
const headers = (at: Date, sig?: string) => ({
  id: 'msg_1',
  timestamp: String(Math.floor(at.getTime() / 1000)),
  signature: sig ?? signer.sign('msg_1', at, body),
});

describe('webhook signature verification', () => {
  it('accepts a fresh signature and any matching entry of a list', () => {
    const h = headers(new Date());
    expect(verify(body, h)).toBe(true);
    expect(verify(body, { ...h, signature: `v1,AAAA v2,zzz ${h.signature}` })).toBe(true);
  });
  it('rejects other bytes, another id, an old or future timestamp, junk timestamps', () => {
    const h = headers(new Date());
    expect(verify(Buffer.from('{"type": "payment.succeeded"}'), h)).toBe(false);
    expect(verify(body, { ...h, id: 'msg_2' })).toBe(false);
    expect(verify(body, headers(new Date(Date.now() - 301_000)))).toBe(false);
    expect(verify(body, headers(new Date(Date.now() + 301_000)))).toBe(false);
    expect(verify(body, { ...h, timestamp: `${h.timestamp}abc` })).toBe(false);
    expect(verify(body, { ...h, signature: '' })).toBe(false);
  });
  it('refuses an empty key', () => {
    expect(() => createVerifier('whsec_')).toThrow();
  });
});
