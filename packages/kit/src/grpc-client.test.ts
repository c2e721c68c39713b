import {
  Server,
  ServerCredentials,
  status,
  type sendUnaryData,
  type ServerReadableStream,
  type ServerWritableStream,
  type ServiceError,
} from '@grpc/grpc-js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ceremonyV1, transactionV1 } from '@signet/proto';
import { contention, notFound } from './errors.js';
import { RpcError, toServiceError } from './grpc-error.js';
import { createClient, type ServiceClient } from './grpc-client.js';
import { Metrics } from './metrics.js';

const TX = transactionV1.TransactionServiceService;
type Chunk = transactionV1.CreateTransactionChunk;

/** An in-process TransactionService with only the streaming methods, each answering by what the test sent. */
describe('stream calls of createClient: deadline, metadata, timing and errors as for unary calls', () => {
  const server = new Server();
  const seen: { metadata?: Record<string, unknown>; deadline?: number; chunks: Chunk[]; cancelled: boolean } = {
    chunks: [],
    cancelled: false,
  };
  let client: ServiceClient<transactionV1.TransactionServiceClient>;
  const metrics = new Metrics('kit-test');

  beforeAll(async () => {
    const unimplemented = (_call: unknown, cb: sendUnaryData<unknown>) => cb({ code: status.UNIMPLEMENTED } as ServiceError);
    const impl: Record<string, unknown> = Object.fromEntries(Object.keys(TX).map((k) => [k, unimplemented]));
    impl.createTransaction = (call: ServerReadableStream<Chunk, unknown>, cb: sendUnaryData<unknown>) => {
      seen.metadata = call.metadata.getMap();
      seen.deadline = Number(call.getDeadline());
      seen.chunks = [];
      call.on('data', (c: Chunk) => seen.chunks.push(c));
      call.on('end', () => {
        const begin = seen.chunks[0]?.part;
        if (begin?.$case === 'begin' && begin.value.ownerId === 'busy')
          return cb(toServiceError(contention()) as ServiceError, null);
        cb(null, { id: seen.chunks.length, reference: 'REF', token: 't', signUrl: '', status: 'created', replayed: false });
      });
    };
    impl.exportTransactions = (call: ServerWritableStream<transactionV1.ExportTransactionsRequest, unknown>) => {
      seen.deadline = Number(call.getDeadline());
      seen.cancelled = false;
      call.on('cancelled', () => (seen.cancelled = true));
      const n = call.request.ownerId === 'many' ? 200 : 3;
      for (let i = 0; i < n; i++) call.write({ id: i + 1, reference: `R${i}` });
      if (call.request.ownerId === 'missing') return call.emit('error', toServiceError(notFound('no such owner')));
      if (call.request.ownerId === 'many') return; // left open: the reader stops early
      call.end();
    };
    server.addService(TX, impl as never);
    const port = await new Promise<number>((resolve, reject) =>
      server.bindAsync('127.0.0.1:0', ServerCredentials.createInsecure(), (e, p) => (e ? reject(e) : resolve(p))),
    );
    client = createClient(transactionV1.TransactionServiceClient, `127.0.0.1:${port}`, { metrics });
  });
  afterAll(() => {
    client?.close();
    server.forceShutdown();
  });

  const begin = (ownerId: string): Chunk => ({
    part: { $case: 'begin', value: { ownerId, orgName: 'Org', idempotencyKey: '' } },
  });

  it('clientStream: writes in order, carries the caller’s metadata and deadline, resolves with the response', async () => {
    const started = Date.now();
    const call = client.clientStream(TX.createTransaction, { deadlineMs: 60_000, metadata: { 'x-request-id': 'r1' } });
    call.write(begin('u1'));
    call.write({ part: { $case: 'document', value: Buffer.from('%PDF-1.7') } });
    call.end();
    const r = await call.result;
    expect(r.id).toBe(2);
    expect(seen.chunks.map((c) => c.part?.$case)).toEqual(['begin', 'document']);
    expect(seen.metadata?.['x-request-id']).toBe('r1');
    expect(seen.deadline! - started).toBeGreaterThan(55_000);
    expect(seen.deadline! - started).toBeLessThan(65_000);
    expect(await metrics.registry.getSingleMetricAsString('signet_grpc_client_handling_seconds')).toMatch(
      /method="signet.transaction.v1.TransactionService\/CreateTransaction",code="OK"/,
    );
  });

  it('clientStream: a custom serializer writes the caller’s own message shape', async () => {
    const call = client.clientStream<Chunk, transactionV1.CreateTransactionResult, { owner: string }>(TX.createTransaction, {
      deadlineMs: 10_000,
      serialize: (m) => Buffer.from(transactionV1.CreateTransactionChunk.encode(begin(m.owner)).finish()),
    });
    call.write({ owner: 'u2' });
    call.end();
    await call.result;
    expect(seen.chunks[0]?.part).toMatchObject({ $case: 'begin', value: { ownerId: 'u2' } });
  });

  it('clientStream: a service error rejects with RpcError, its code, reason and Retry-After', async () => {
    const call = client.clientStream(TX.createTransaction, { deadlineMs: 10_000 });
    call.write(begin('busy'));
    call.end();
    const err = await call.result.catch((e: unknown) => e);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: status.UNAVAILABLE, reason: 'CONTENTION', retryAfterSeconds: 1 });
  });

  it('clientStream: cancel rejects with CANCELLED; the deadline rejects with DEADLINE_EXCEEDED', async () => {
    const cancelled = client.clientStream(TX.createTransaction, { deadlineMs: 10_000 });
    cancelled.write(begin('u3'));
    cancelled.cancel();
    expect(await cancelled.result.catch((e: RpcError) => e.code)).toBe(status.CANCELLED);
    const late = client.clientStream(TX.createTransaction, { deadlineMs: 50 });
    late.write(begin('u4'));
    expect(await late.result.catch((e: RpcError) => e.code)).toBe(status.DEADLINE_EXCEEDED);
  });

  it('serverStream: every message, then the end, with the caller’s deadline', async () => {
    const started = Date.now();
    const got: number[] = [];
    for await (const s of client.serverStream(TX.exportTransactions, { ownerId: 'u1' }, { deadlineMs: 30_000 })) got.push(s.id);
    expect(got).toEqual([1, 2, 3]);
    expect(seen.deadline! - started).toBeGreaterThan(25_000);
  });

  it('serverStream: the messages sent before a failure, then RpcError with the service’s code', async () => {
    const got: number[] = [];
    const err = await (async () => {
      for await (const s of client.serverStream(TX.exportTransactions, { ownerId: 'missing' }, { deadlineMs: 10_000 }))
        got.push(s.id);
    })().catch((e: unknown) => e);
    expect(got).toEqual([1, 2, 3]);
    expect(err).toBeInstanceOf(RpcError);
    expect(err).toMatchObject({ code: status.NOT_FOUND, details: 'no such owner' });
  });

  it('serverStream: leaving the loop early cancels the call', async () => {
    for await (const s of client.serverStream(TX.exportTransactions, { ownerId: 'many' }, { deadlineMs: 10_000 }))
      if (s.id === 5) break;
    await new Promise((r) => setTimeout(r, 200));
    expect(seen.cancelled).toBe(true);
  });

  it('refuses a method of another service', () => {
    expect(() => client.clientStream(ceremonyV1.CeremonyServiceService.submitCapture, { deadlineMs: 1000 })).toThrow(
      /not a method of this client's service/,
    );
  });
});
