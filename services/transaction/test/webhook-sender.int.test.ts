/**
 * One webhook attempt against real HTTP servers on 127.0.0.1: the resolved (and checked) address is
 * the one connected to, a refused address is never connected to, redirects are not followed, at
 * most 64 KB of an answer is read and 1 KB kept, a slow receiver times out, and the signature
 * verifies with standardwebhooks' own verifier.
 */
import { createServer, type IncomingHttpHeaders, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { sendWebhook, MAX_RESPONSE_BYTES } from '../src/webhooks/delivery/http-sender.js';
import { addressPolicy } from '../src/webhooks/domain/address-policy.js';
import { newEndpointSecret } from '../src/webhooks/domain/webhook-event.js';

const servers: Server[] = [];
async function serve(handler: RequestListener) {
  const seen: { headers: IncomingHttpHeaders; body: string; url: string }[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      seen.push({ headers: req.headers, body: Buffer.concat(chunks).toString(), url: req.url ?? '' });
      handler(req, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { port: (server.address() as AddressInfo).port, seen };
}
afterAll(async () => {
  for (const s of servers) {
    s.closeAllConnections();
    await new Promise((r) => s.close(r));
  }
});

const loopbackOk = { policy: addressPolicy('127.0.0.0/8') };
const secret = newEndpointSecret();
const req = (url: string) => ({
  url,
  secrets: [secret],
  webhookId: 'msg_test',
  payload: '{"type":"transaction.created"}',
  at: new Date(),
});

describe('webhook sender', () => {
  it('connects to the address it resolved and checked, with the URL’s host name, and signs verifiably', async () => {
    const { port, seen } = await serve((_q, res) => res.writeHead(204).end());
    // hooks.invalid does not exist in DNS: only the resolver's answer can lead to the server.
    const resolver = async (host: string) => (host === 'hooks.invalid' ? [{ address: '127.0.0.1', family: 4 }] : []);
    const o = await sendWebhook(req(`http://hooks.invalid:${port}/in?x=1`), { ...loopbackOk, resolver });
    expect(o).toMatchObject({ result: 'success', status: 204 });
    expect(seen).toHaveLength(1);
    expect(seen[0]!.headers.host).toBe(`hooks.invalid:${port}`);
    expect(seen[0]!.url).toBe('/in?x=1');
    const h = seen[0]!.headers;
    expect(
      new Webhook(secret).verify(seen[0]!.body, {
        'webhook-id': String(h['webhook-id']),
        'webhook-timestamp': String(h['webhook-timestamp']),
        'webhook-signature': String(h['webhook-signature']),
      }),
    ).toEqual({ type: 'transaction.created' });
  });

  it('never connects to a refused address', async () => {
    const { port, seen } = await serve((_q, res) => res.writeHead(200).end());
    const strict = { policy: addressPolicy('') };
    const direct = await sendWebhook(req(`http://127.0.0.1:${port}/`), strict);
    expect(direct).toMatchObject({ result: 'refused_address', status: 0 });
    expect(direct.snippet).toMatch(/loopback/);
    // A name that resolves to loopback (as a rebinding name would on its second answer).
    const resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await sendWebhook(req(`http://rebind.invalid:${port}/`), { ...strict, resolver })).toMatchObject({
      result: 'refused_address',
    });
    expect(seen).toHaveLength(0);
  });

  it('does not follow a redirect: a 3xx is a failed attempt', async () => {
    const target = await serve((_q, res) => res.writeHead(200).end());
    const { port } = await serve((_q, res) => res.writeHead(302, { location: `http://127.0.0.1:${target.port}/` }).end('moved'));
    const o = await sendWebhook(req(`http://127.0.0.1:${port}/`), loopbackOk);
    expect(o).toMatchObject({ result: 'http_error', status: 302, snippet: 'moved' });
    expect(target.seen).toHaveLength(0);
  });

  it('reads at most 64 KB of an answer and keeps 1 KB', async () => {
    let written = 0;
    let closedAfter = -1;
    const { port } = await serve((_q, res) => {
      res.writeHead(500, { 'content-type': 'text/plain' });
      const chunk = Buffer.alloc(16 * 1024, 'a');
      // Up to 8 MB, stopping when the client has gone.
      const pump = () => {
        while (written < 8 * 1024 * 1024) {
          written += chunk.length;
          if (!res.write(chunk)) return void res.once('drain', pump);
        }
        res.end();
      };
      res.on('close', () => {
        closedAfter = written;
        written = Infinity;
      });
      pump();
    });
    const o = await sendWebhook(req(`http://127.0.0.1:${port}/`), loopbackOk);
    expect(o).toMatchObject({ result: 'http_error', status: 500 });
    expect(o.snippet).toBe('a'.repeat(1024));
    // The client dropped the connection before the 8 MB were sent.
    for (let i = 0; i < 50 && closedAfter < 0; i++) await new Promise((r) => setTimeout(r, 20));
    expect(closedAfter).toBeGreaterThan(0);
    expect(closedAfter).toBeLessThan(8 * 1024 * 1024);
    expect(MAX_RESPONSE_BYTES).toBe(64 * 1024);
  });

  it('times out a receiver that does not answer', async () => {
    const { port } = await serve(() => undefined);
    const t0 = Date.now();
    const o = await sendWebhook(req(`http://127.0.0.1:${port}/`), { ...loopbackOk, timeoutMs: 300 });
    expect(o).toMatchObject({ result: 'timeout', status: 0 });
    expect(Date.now() - t0).toBeLessThan(2000);
  });

  it('answers a connection error as network_error', async () => {
    const { port } = await serve((_q, res) => res.socket?.destroy());
    expect(await sendWebhook(req(`http://127.0.0.1:${port}/`), loopbackOk)).toMatchObject({ result: 'network_error' });
  });
});
