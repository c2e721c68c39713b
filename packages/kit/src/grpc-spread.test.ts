/**
 * gRPC calls spread over every replica (issue 35): a client whose target resolves to three servers
 * (an `ipv4:` list here, a headless Service's `dns:///` name in the chart) gives each its share,
 * and a replica shut down under load is dropped without a failed call. Real servers on loopback.
 */
import { status, type sendUnaryData, type ServiceError } from '@grpc/grpc-js';
import { afterEach, describe, expect, it } from 'vitest';
import { transactionV1 } from '@signet/proto';
import { env } from './config.js';
import { addService, createGrpcServer, createClient } from './grpc.js';
import { createLogger } from './logger.js';
import { Metrics } from './metrics.js';

const TX = transactionV1.TransactionServiceService;
const request = () => transactionV1.GetTransactionRequest.fromPartial({ ownerId: 'o', id: 1 });

describe('gRPC calls across replicas', () => {
  const stops: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const s of stops.splice(0).reverse()) await s();
  });

  /** A server answering GetTransaction with its own name, counting what it served. */
  async function replica(name: string, metrics: Metrics) {
    const grpc = createGrpcServer(async () => true);
    const served = { n: 0 };
    const unimplemented = (_call: unknown, cb: sendUnaryData<unknown>) => cb({ code: status.UNIMPLEMENTED } as ServiceError);
    const handlers: Record<string, unknown> = Object.fromEntries(Object.keys(TX).map((k) => [k, unimplemented]));
    handlers.getTransaction = async () => {
      served.n++;
      await new Promise((r) => setTimeout(r, 2));
      return transactionV1.TransactionDetail.fromPartial({ documentName: name });
    };
    addService(grpc.server, TX, handlers as never, { metrics, logger: createLogger('kit-test', 'silent') });
    const port = await grpc.listen('127.0.0.1:0');
    let down = false;
    const shutdown = async () => {
      if (down) return;
      down = true;
      await grpc.shutdown(2_000);
    };
    stops.push(shutdown);
    return { port, served, shutdown };
  }

  async function threeReplicas() {
    const metrics = new Metrics('kit-spread-test');
    const rs = [await replica('a', metrics), await replica('b', metrics), await replica('c', metrics)];
    const target = `ipv4:${rs.map((r) => `127.0.0.1:${r.port}`).join(',')}`;
    const client = createClient(transactionV1.TransactionServiceClient, target, { metrics });
    stops.push(() => client.close());
    return { rs, client };
  }

  it('gives each of three replicas its share (within 20 % of even)', async () => {
    const { rs, client } = await threeReplicas();
    // The first calls may arrive while the later connections are still being made: warm up first.
    await Promise.all(Array.from({ length: 30 }, () => client.getTransaction(request())));
    for (const r of rs) r.served.n = 0;
    for (let k = 0; k < 300; k++) await client.getTransaction(request());
    const counts = rs.map((r) => r.served.n);
    expect(counts.reduce((a, b) => a + b)).toBe(300);
    for (const n of counts) expect(Math.abs(n - 100)).toBeLessThanOrEqual(20);
  }, 30_000);

  it('drops a replica that shuts down under load without a failed call', async () => {
    const { rs, client } = await threeReplicas();
    await Promise.all(Array.from({ length: 30 }, () => client.getTransaction(request())));
    let failed = 0;
    let answered = 0;
    let stop = false;
    const worker = async () => {
      while (!stop) {
        try {
          await client.getTransaction(request());
          answered++;
        } catch {
          failed++;
        }
      }
    };
    const workers = Array.from({ length: 6 }, worker);
    await new Promise((r) => setTimeout(r, 300));
    await rs[2]!.shutdown();
    const servedByGone = rs[2]!.served.n;
    await new Promise((r) => setTimeout(r, 500));
    stop = true;
    await Promise.all(workers);
    expect(failed).toBe(0);
    expect(answered).toBeGreaterThan(100);
    // After it went, the other two served everything.
    expect(rs[2]!.served.n).toBe(servedByGone);
    expect(rs[0]!.served.n).toBeGreaterThan(0);
    expect(rs[1]!.served.n).toBeGreaterThan(0);
  }, 30_000);

  it('accepts the three target forms and refuses anything else', () => {
    for (const ok of ['svc:50051', 'dns:///signet-identity-headless:50051', 'ipv4:127.0.0.1:1,127.0.0.1:2'])
      expect(env.grpcAddress.safeParse(ok).success).toBe(true);
    for (const bad of ['svc', 'http://svc:50051', 'dns:///svc', 'ipv4:127.0.0.1:1,', 'unix:/tmp/s', 'svc:50051 '])
      expect(env.grpcAddress.safeParse(bad).success).toBe(false);
  });
});
