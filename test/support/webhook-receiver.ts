/** Webhook receivers on 127.0.0.1 for the webhook tests and benchmark: real HTTP servers that record every request. */
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Received = { at: number; headers: IncomingHttpHeaders; body: string };

/**
 * A receiver: records every request and answers as `behaviour` says for the n-th (1-based); a
 * behaviour that never answers holds the request open (`open` counts those, `ended` those the
 * sender gave up on) until close().
 */
export async function webhookReceiver(behaviour: (n: number, res: ServerResponse) => void) {
  const got: Received[] = [];
  const state = { open: 0, ended: 0 };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      got.push({ at: Date.now(), headers: req.headers, body: Buffer.concat(chunks).toString('utf8') });
      state.open++;
      res.on('close', () => {
        state.open--;
        if (!res.writableFinished) state.ended++;
      });
      behaviour(got.length, res);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hooks/signet`,
    got,
    state,
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}
export type WebhookReceiver = Awaited<ReturnType<typeof webhookReceiver>>;

/** Answers every request with `status`. */
export const answering =
  (status: number, body = '') =>
  (_n: number, res: ServerResponse) =>
    res.writeHead(status).end(body);

/** Never answers: the request stays open until the sender gives up or the receiver closes. */
export const hanging = () => undefined;
