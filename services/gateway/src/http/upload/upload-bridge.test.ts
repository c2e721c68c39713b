import { request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { status } from '@grpc/grpc-js';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger, RpcError, type ClientStream } from '@signet/kit';
import { badRequest, errorBoundary } from '../errors.js';
import { bridgeUpload, type UploadForm } from './upload-bridge.js';

type Msg = { kind: string; bytes?: number };

/** A client stream standing in for the service: records what it is sent; the test settles it. */
function fakeCall() {
  const sent: Msg[] = [];
  let settle!: { resolve: (v: string) => void; reject: (e: unknown) => void };
  const result = new Promise<string>((resolve, reject) => (settle = { resolve, reject }));
  result.catch(() => undefined);
  const state = { sent, ended: false, cancelled: false, settle };
  const call: ClientStream<Msg, string> = {
    write: (m) => (sent.push(m), true),
    onceDrain: () => undefined,
    end: () => {
      state.ended = true;
      settle.resolve(`ok:${sent.map((m) => m.kind).join(',')}`);
    },
    cancel: () => {
      state.cancelled = true;
      settle.reject(new RpcError(status.CANCELLED, 'cancelled', 'CANCELLED'));
    },
    result,
  };
  return { call, state };
}

/**
 * A form of two files, `a` then `b`, after a field `id`; the service refuses `id=stale` as soon as it
 * opens, and with `id=full` takes the first message and never drains.
 */
function form(calls: ReturnType<typeof fakeCall>[], cuts: number[]): UploadForm<Msg, string> {
  let id = '';
  const seen = new Set<string>();
  return {
    limits: { fileSize: 1024 * 1024, files: 2, fields: 2 },
    maxDeclared: { bytes: 8 * 1024 * 1024, detail: 'too large' },
    details: { unparsable: 'not multipart', malformed: 'malformed', filesLimit: 'two files at most' },
    field: (name, value) => {
      if (name === 'id') id = value;
    },
    file: (name) => {
      if (name !== 'a' && name !== 'b') throw badRequest(`unexpected file ${name}`);
      seen.add(name);
      return { tooLarge: `${name} is too large`, data: (c) => [{ kind: name, bytes: c.length }], end: () => [] };
    },
    open: () => {
      const f = fakeCall();
      calls.push(f);
      // A call that never drains: the file being forwarded stays paused, the next one waits its turn.
      if (id === 'full') f.call.write = (m) => (f.state.sent.push(m), false);
      if (id === 'stale')
        setImmediate(() => f.state.settle.reject(new RpcError(status.FAILED_PRECONDITION, 'stale', 'STALE_NONCE')));
      return f.call;
    },
    begin: () => ({ kind: 'begin' }),
    end: () => {
      if (!seen.has('b')) throw badRequest('b is required');
      return [{ kind: 'fields' }];
    },
    onCut: (s) => cuts.push(s),
  };
}

const BOUNDARY = 'xBOUNDARYx';
const part = (name: string, body: string | Buffer, file = false) =>
  Buffer.concat([
    Buffer.from(
      `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${name}"${file ? `; filename="${name}.bin"` : ''}\r\n` +
        `${file ? 'Content-Type: application/octet-stream\r\n' : ''}\r\n`,
    ),
    Buffer.isBuffer(body) ? body : Buffer.from(body),
    Buffer.from('\r\n'),
  ]);
const closing = Buffer.from(`--${BOUNDARY}--\r\n`);
/** A file part's headers: its bytes follow. */
const opening = (name: string) => part(name, '', true).subarray(0, -2);

type Answer = { status: number; headers: IncomingHttpHeaders; body: { detail?: string; result?: string }; sentAtAnswer: number };

describe('bridgeUpload (busboy → gRPC client stream)', () => {
  const calls: ReturnType<typeof fakeCall>[] = [];
  const cuts: number[] = [];
  const guarded: Promise<string>[] = [];
  let server: Server;
  let port: number;

  beforeAll(async () => {
    const app = express();
    app.post('/upload', async (req, res) => {
      res.status(201).json({ result: await bridgeUpload(req, form(calls, cuts)) });
    });
    // As the real routes: the bridge starts only after awaited guards (authentication, rate limits).
    app.post('/guarded', async (req, res) => {
      await new Promise((r) => setTimeout(r, 150));
      const settled = bridgeUpload(req, form(calls, cuts));
      guarded.push(
        settled.then(
          () => 'resolved',
          () => 'rejected',
        ),
      );
      res.status(201).json({ result: await settled });
    });
    app.use(errorBoundary(createLogger('gateway-test', 'silent')));
    server = app.listen(0);
    await new Promise((r) => server.once('listening', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => server.close());

  /** Sends `head`, then `tail` in 64 KB pieces with a pause between them, and stops sending once answered. */
  const send = (head: Buffer, tail: Buffer = Buffer.alloc(0), headers: Record<string, string> = {}) =>
    new Promise<Answer>((resolve, reject) => {
      let sent = 0;
      let answered = false;
      const req = httpRequest(
        {
          port,
          method: 'POST',
          path: '/upload',
          headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}`, ...headers },
        },
        (res) => {
          answered = true;
          const at = sent;
          let text = '';
          res.on('data', (c: Buffer) => (text += c.toString()));
          res.on('end', () =>
            resolve({ status: res.statusCode!, headers: res.headers, body: JSON.parse(text), sentAtAnswer: at }),
          );
        },
      );
      req.on('error', (e) => (answered ? undefined : reject(e)));
      req.write(head);
      sent += head.length;
      let o = 0;
      const next = () => {
        if (answered) return void req.destroy();
        if (o >= tail.length) return void req.end();
        const piece = tail.subarray(o, o + 64 * 1024);
        o += piece.length;
        req.write(piece, () => {
          sent += piece.length;
          setTimeout(next, 5);
        });
      };
      next();
    });

  it('forwards begin, each file in order and the last messages; answers once the body is complete', async () => {
    const body = Buffer.concat([
      part('id', 'x1'),
      part('a', Buffer.alloc(3000, 1), true),
      part('b', Buffer.alloc(10, 2), true),
      closing,
    ]);
    const r = await send(body);
    expect(r.status).toBe(201);
    const kinds = calls.at(-1)!.state.sent.map((m) => m.kind);
    expect(kinds[0]).toBe('begin');
    expect(kinds.at(-1)).toBe('fields');
    expect(kinds.lastIndexOf('a')).toBeLessThan(kinds.indexOf('b'));
    expect(r.headers.connection).not.toBe('close');
  });

  it('a refusal by the service while the body still arrives: answered at once with Connection: close, the call cancelled', async () => {
    const cutsBefore = cuts.length;
    const head = Buffer.concat([part('id', 'stale'), opening('a')]);
    const r = await send(head, Buffer.alloc(900 * 1024, 7));
    expect(r.status).toBe(409);
    expect(r.body).toEqual({ detail: 'stale' });
    expect(r.headers.connection).toBe('close');
    expect(r.sentAtAnswer).toBeLessThan(head.length + 900 * 1024);
    expect(cuts.slice(cutsBefore)).toEqual([409]);
  });

  it('a declared length over the limit: 413 before anything is read, no call opened', async () => {
    const opened = calls.length;
    const head = part('id', 'x2');
    const r = await send(head, Buffer.alloc(256 * 1024), { 'Content-Length': String(9 * 1024 * 1024) });
    expect([r.status, r.body.detail, r.headers.connection]).toEqual([413, 'too large', 'close']);
    expect(calls.length).toBe(opened);
  });

  it('a file over busboy’s limit: 413 with the file’s detail, the call cancelled', async () => {
    const head = Buffer.concat([part('id', 'x3'), opening('a')]);
    const r = await send(head, Buffer.alloc(1200 * 1024, 5));
    expect([r.status, r.body.detail, r.headers.connection]).toEqual([413, 'a is too large', 'close']);
    expect(calls.at(-1)!.state.cancelled).toBe(true);
  });

  it('the form’s own refusals keep their detail: an unknown file, a missing part', async () => {
    const unknown = await send(Buffer.concat([part('id', 'x4'), part('c', 'zz', true), closing]));
    expect([unknown.status, unknown.body.detail]).toEqual([400, 'unexpected file c']);
    const missing = await send(Buffer.concat([part('id', 'x5'), part('a', 'zz', true), closing]));
    expect([missing.status, missing.body.detail]).toEqual([400, 'b is required']);
    expect(calls.at(-1)!.state.cancelled).toBe(true);
  });

  it('a body that ends before its closing boundary: 400 at once, the call cancelled, no error left unhandled', async () => {
    // `a` is paused by a full call, so `b` still waits its turn when the body ends; busboy then destroys
    // `b`'s stream with an error, which must not escape the process.
    const head = Buffer.concat([part('id', 'full'), opening('a'), Buffer.alloc(1000, 1)]);
    const r = await send(head, Buffer.concat([Buffer.alloc(1000, 1), Buffer.from('\r\n'), part('b', 'zz', true)]));
    expect([r.status, r.body.detail]).toEqual([400, 'malformed']);
    expect(calls.at(-1)!.state.cancelled).toBe(true);
    expect(calls.at(-1)!.state.ended).toBe(false);
  });

  it('a part header with a control character: 400 at once, even while the body is still arriving', async () => {
    const bad = Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="\x01a"; filename="a.bin"\r\n\r\n`);
    const r = await send(Buffer.concat([part('id', 'x8'), bad]), Buffer.alloc(512 * 1024, 3));
    expect([r.status, r.body.detail]).toEqual([400, 'malformed']);
  });

  it('a body that is not multipart: 400 with the form’s detail', async () => {
    const r = await send(Buffer.from('plain'), undefined, { 'Content-Type': 'multipart/form-data' });
    expect([r.status, r.body.detail]).toEqual([400, 'not multipart']);
  });

  it('a client gone while the route still awaited its guards: the upload settles at once instead of waiting for ever', async () => {
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        port,
        method: 'POST',
        path: '/guarded',
        headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      req.on('error', () => undefined);
      req.write(Buffer.concat([part('id', 'x7'), opening('a'), Buffer.alloc(1024)]), () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 20),
      );
    });
    await expect.poll(() => guarded.length, { timeout: 2000 }).toBe(1);
    const outcome = await Promise.race([guarded[0], new Promise((r) => setTimeout(() => r('still waiting'), 1000))]);
    expect(outcome).toBe('rejected');
  });

  it('the client going away mid-body cancels the call', async () => {
    const opened = calls.length;
    await new Promise<void>((resolve) => {
      const req = httpRequest({
        port,
        method: 'POST',
        path: '/upload',
        headers: { 'Content-Type': `multipart/form-data; boundary=${BOUNDARY}` },
      });
      req.on('error', () => undefined);
      req.write(Buffer.concat([part('id', 'x6'), opening('a'), Buffer.alloc(64 * 1024)]), () =>
        setTimeout(() => {
          req.destroy();
          resolve();
        }, 100),
      );
    });
    await new Promise((r) => setTimeout(r, 200));
    expect(calls.length).toBe(opened + 1);
    expect(calls.at(-1)!.state.cancelled).toBe(true);
  });
});
