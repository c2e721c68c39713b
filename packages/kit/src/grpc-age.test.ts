/**
 * gRPC load spreading on real loopback connections: with GRPC_MAX_CONNECTION_AGE_MS set, the kit's
 * gRPC server closes each client connection once it is that old and the kit's client reconnects by
 * itself, so a steady caller arrives on new connections (through a Service: on any replica) and no
 * call fails on the way; with it off, one connection carries every call.
 */
import { status, type sendUnaryData, type ServiceError } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { transactionV1 } from '@signet/proto';
import { addService, createGrpcServer, createClient } from './grpc.js';
import { createLogger } from './logger.js';
import { Metrics } from './metrics.js';
import { configureProcess } from './process-settings.js';

const TX = transactionV1.TransactionServiceService;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('gRPC connection age', () => {
  const stops: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const s of stops.splice(0)) await s();
    configureProcess({});
  });

  /** Serves GetTransaction answering with the caller's address; calls it every 50 ms for `ms`. */
  async function callFor(ms: number) {
    const metrics = new Metrics('kit-age-test');
    const grpc = createGrpcServer(async () => true);
    const unimplemented = (_call: unknown, cb: sendUnaryData<unknown>) => cb({ code: status.UNIMPLEMENTED } as ServiceError);
    const handlers: Record<string, unknown> = Object.fromEntries(Object.keys(TX).map((k) => [k, unimplemented]));
    handlers.getTransaction = async (_req: unknown, call: { getPeer(): string }) =>
      transactionV1.TransactionDetail.fromPartial({ documentName: call.getPeer() });
    addService(grpc.server, TX, handlers as never, { metrics, logger: createLogger('kit-test', 'silent') });
    const port = await grpc.listen('127.0.0.1:0');
    const client = createClient(transactionV1.TransactionServiceClient, `127.0.0.1:${port}`, { metrics });
    stops.push(
      () => client.close(),
      () => grpc.shutdown(1_000),
    );
    const peers: string[] = [];
    let failed = 0;
    const end = Date.now() + ms;
    while (Date.now() < end) {
      try {
        const r = await client.getTransaction(transactionV1.GetTransactionRequest.fromPartial({ ownerId: 'o', id: 1 }));
        peers.push(r.documentName);
      } catch {
        failed++;
      }
      await sleep(50);
    }
    return { peers: new Set(peers), calls: peers.length, failed };
  }

  it('moves a steady caller to new connections, every call answered', async () => {
    configureProcess({ GRPC_MAX_CONNECTION_AGE_MS: 400, GRPC_MAX_CONNECTION_AGE_GRACE_MS: 1_000 });
    const r = await callFor(2_500);
    expect(r.failed).toBe(0);
    expect(r.calls).toBeGreaterThan(20);
    expect(r.peers.size).toBeGreaterThanOrEqual(3);
  }, 20_000);

  it('keeps one connection when the age is off (the default)', async () => {
    const r = await callFor(1_500);
    expect(r.failed).toBe(0);
    expect(r.peers.size).toBe(1);
  }, 20_000);
});
