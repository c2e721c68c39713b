import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { LookupFunction } from 'node:net';
import { Webhook } from 'standardwebhooks';
import type { AddressPolicy } from '../domain/address-policy.js';
import { hostOf } from '../domain/endpoint-url.js';
import { resolveAllowed, systemResolver, type Resolver } from './resolve.js';

/** A delivered within this long with a 2xx counts; anything later is a timeout. */
export const DELIVERY_TIMEOUT_MS = 10_000;
/** At most this much of a response body is read; the rest is dropped with the connection. */
export const MAX_RESPONSE_BYTES = 64 * 1024;
/** At most this much of it is kept in the delivery log. */
export const SNIPPET_BYTES = 1024;

export type AttemptResult = 'success' | 'http_error' | 'timeout' | 'network_error' | 'refused_address';
export type AttemptOutcome = { result: AttemptResult; status: number; latencyMs: number; snippet: string };

export type SendRequest = {
  url: string;
  /** The whsec_ secrets to sign with: the current one, then the previous one during a roll's overlap. */
  secrets: string[];
  webhookId: string;
  payload: string;
  at: Date;
  signal?: AbortSignal;
};

export type SenderDeps = { policy: AddressPolicy; resolver?: Resolver; timeoutMs?: number };

/**
 * One delivery attempt, signed per Standard Webhooks (webhook-id, webhook-timestamp,
 * webhook-signature with the endpoint's whsec_ secret, and its previous one during a roll's overlap). The host is resolved once; the address is
 * checked against the policy and is the one connected to (the lookup of the request returns it);
 * redirects are not followed (a 3xx is a failed attempt); at most 64 KB of the body is read and
 * 1 KB kept; a 2xx within the timeout is a success. Aborting `signal` (the process stopping) rejects.
 */
export async function sendWebhook(req: SendRequest, deps: SenderDeps): Promise<AttemptOutcome> {
  const started = Date.now();
  const took = () => Date.now() - started;
  const url = new URL(req.url);
  const resolved = await resolveAllowed(hostOf(url), deps.policy, deps.resolver ?? systemResolver);
  if ('refused' in resolved) return { result: 'refused_address', status: 0, latencyMs: took(), snippet: resolved.refused };
  // Standard Webhooks: several `v1,` signatures separated by spaces; a receiver accepts any that verifies.
  const signature = req.secrets.map((s) => new Webhook(s).sign(req.webhookId, req.at, req.payload)).join(' ');
  const lookup: LookupFunction = (_host, opts, cb) => {
    if ((opts as { all?: boolean }).all) (cb as any)(null, [{ address: resolved.address, family: resolved.family }]);
    else cb(null, resolved.address, resolved.family);
  };
  const timeoutMs = deps.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  return new Promise<AttemptOutcome>((resolve, reject) => {
    let settled = false;
    const finish = (o: AttemptOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
      resolve(o);
    };
    const make = url.protocol === 'https:' ? httpsRequest : httpRequest;
    const r = make(
      url,
      {
        method: 'POST',
        lookup,
        agent: false,
        headers: {
          'content-type': 'application/json',
          'user-agent': 'Signet-Webhooks/1.0',
          'webhook-id': req.webhookId,
          'webhook-timestamp': String(Math.floor(req.at.getTime() / 1000)),
          'webhook-signature': signature,
          'content-length': Buffer.byteLength(req.payload),
        },
      },
      (res: IncomingMessage) => {
        const status = res.statusCode ?? 0;
        const chunks: Buffer[] = [];
        let size = 0;
        const done = () => {
          const body = Buffer.concat(chunks).subarray(0, SNIPPET_BYTES).toString('utf8');
          finish({ result: status >= 200 && status < 300 ? 'success' : 'http_error', status, latencyMs: took(), snippet: body });
          res.destroy();
        };
        res.on('data', (c: Buffer) => {
          if (size >= MAX_RESPONSE_BYTES) return;
          chunks.push(c.subarray(0, MAX_RESPONSE_BYTES - size));
          size += c.length;
          if (size >= MAX_RESPONSE_BYTES) done();
        });
        res.on('end', done);
        res.on('error', (err) =>
          finish({ result: 'network_error', status, latencyMs: took(), snippet: err.message.slice(0, SNIPPET_BYTES) }),
        );
      },
    );
    const timer = setTimeout(() => {
      finish({ result: 'timeout', status: 0, latencyMs: took(), snippet: `no answer within ${timeoutMs} ms` });
      r.destroy();
    }, timeoutMs);
    const onAbort = () => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      r.destroy();
      reject(new Error('delivery aborted: the process is stopping'));
    };
    req.signal?.addEventListener('abort', onAbort);
    if (req.signal?.aborted) onAbort();
    r.on('error', (err) =>
      finish({ result: 'network_error', status: 0, latencyMs: took(), snippet: err.message.slice(0, SNIPPET_BYTES) }),
    );
    r.end(req.payload);
  });
}
