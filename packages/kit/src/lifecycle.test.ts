/**
 * closeServer on a real HTTP server over loopback: requests in flight finish and end their
 * keep-alive connection (so no client reuses a socket about to close), new connections are refused,
 * and a request slower than the grace is cut.
 */
import { request, Agent } from 'node:http';
import express from 'express';
import { afterEach, describe, expect, it } from 'vitest';
import { closeServer, listen } from './lifecycle.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

type Got = { status: number; connection: string | undefined; body: string } | { error: string };

function get(port: number, path: string, agent: Agent): Promise<Got> {
  return new Promise((resolve) => {
    const req = request({ host: '127.0.0.1', port, path, agent }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, connection: res.headers.connection, body }));
      res.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    });
    req.on('error', (e) => resolve({ error: (e as NodeJS.ErrnoException).code ?? e.message }));
    req.end();
  });
}

describe('listen', () => {
  it('rejects with EADDRINUSE when the port is taken, instead of resolving a server that listens nowhere', async () => {
    const first = await listen(express(), 0, '127.0.0.1');
    try {
      await expect(listen(express(), first.port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
    } finally {
      await new Promise((r) => first.server.close(r));
    }
  });
});

describe('closeServer', () => {
  const agents: Agent[] = [];
  afterEach(() => agents.splice(0).forEach((a) => a.destroy()));

  async function serve() {
    const app = express();
    let arrived = 0;
    let release!: () => void;
    const released = new Promise<void>((r) => (release = r));
    app.get('/held', async (_req, res) => {
      arrived++;
      await released;
      res.send('released');
    });
    app.get('/slow/:ms', async (req, res) => {
      arrived++;
      await sleep(Number(req.params.ms));
      res.send(`slept ${req.params.ms}`);
    });
    const { server, port } = await listen(app, 0, '127.0.0.1');
    const agent = new Agent({ keepAlive: true, maxSockets: 100 });
    agents.push(agent);
    return { server, port, agent, arrived: () => arrived, release };
  }
  /** Waits for the server to have received n requests (a fixed sleep lost the race on a loaded machine). */
  async function untilArrived(arrived: () => number, n: number) {
    for (let i = 0; i < 500 && arrived() < n; i++) await sleep(10);
    expect(arrived()).toBe(n);
  }

  it('lets 50 requests in flight finish, each ending its keep-alive connection, and refuses new connections', async () => {
    const { server, port, agent, arrived, release } = await serve();
    const inflight = Array.from({ length: 50 }, () => get(port, '/held', agent));
    await untilArrived(arrived, 50);
    let closed = false;
    const closing = closeServer(server, 5_000).then(() => (closed = true));
    await sleep(50);
    expect(await get(port, '/slow/0', new Agent())).toEqual({ error: 'ECONNREFUSED' });
    release();
    const got = await Promise.all(inflight);
    expect(got.filter((g) => 'status' in g && g.status === 200)).toHaveLength(50);
    expect(got.every((g) => 'connection' in g && g.connection === 'close')).toBe(true);
    await closing;
    expect(closed).toBe(true);
  });

  it('cuts a request still running after the grace', async () => {
    const { server, port, agent, arrived } = await serve();
    const hanging = get(port, '/slow/3000', agent);
    await untilArrived(arrived, 1);
    const started = Date.now();
    await closeServer(server, 300);
    expect(Date.now() - started).toBeLessThan(2_000);
    expect(await hanging).toMatchObject({ error: expect.stringMatching(/ECONNRESET|socket hang up/) });
  });
});
