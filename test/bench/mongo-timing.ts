/**
 * A timing proxy for the benchmarks: a TCP proxy in front of the MongoDB-compatible store that reads
 * the wire protocol's OP_MSG headers as they pass (bytes are forwarded untouched) and sums each
 * command's latency by command and collection, so a benchmark can print where the store's time went.
 * Put its URL in the services' MONGO_URL. Server monitoring (`hello`, which the driver holds open on
 * purpose) is left out of the table.
 */
import { createServer, connect, type Socket } from 'node:net';

const OP_MSG = 2013;
const MONITORING = new Set(['hello', 'ismaster', 'isMaster']);

export type CommandStats = { key: string; count: number; totalMs: number; maxMs: number };

/** The command name (first key of the body) and its collection (when the first value is a string). */
function commandOf(msg: Buffer): { name: string; coll: string } | null {
  if (msg.readInt32LE(12) !== OP_MSG || msg.length < 22 || msg[20] !== 0) return null;
  // Section kind 0 at 20: a BSON document (int32 length at 21); its first element at 25.
  const type = msg[25];
  const end = msg.indexOf(0, 26);
  if (end < 0) return null;
  const name = msg.toString('utf8', 26, end);
  let coll = '';
  if (type === 0x02) {
    const len = msg.readInt32LE(end + 1);
    coll = msg.toString('utf8', end + 5, end + 5 + len - 1);
  }
  return { name, coll };
}

/** Splits a byte stream into wire messages (each starts with its int32 length). */
function framer(onMessage: (msg: Buffer) => void) {
  let buf: Buffer = Buffer.alloc(0);
  return (chunk: Buffer) => {
    buf = buf.length ? Buffer.concat([buf, chunk]) : chunk;
    while (buf.length >= 4) {
      const len = buf.readInt32LE(0);
      if (buf.length < len) break;
      onMessage(buf.subarray(0, len));
      buf = buf.subarray(len);
    }
  };
}

export async function startMongoTimingProxy(upstreamUrl: string) {
  const u = new URL(upstreamUrl);
  const upstream = { host: u.hostname, port: Number(u.port || 27017) };
  const stats = new Map<string, CommandStats>();
  const sockets = new Set<Socket>();
  const server = createServer((client) => {
    const server = connect(upstream);
    sockets.add(client).add(server);
    const pending = new Map<number, { key: string; t0: bigint }>();
    const fromClient = framer((msg) => {
      const c = commandOf(msg);
      if (c && !MONITORING.has(c.name))
        pending.set(msg.readInt32LE(4), { key: c.coll ? `${c.name} ${c.coll}` : c.name, t0: process.hrtime.bigint() });
    });
    const fromServer = framer((msg) => {
      const req = pending.get(msg.readInt32LE(8));
      if (!req) return;
      pending.delete(msg.readInt32LE(8));
      const ms = Number(process.hrtime.bigint() - req.t0) / 1e6;
      const s = stats.get(req.key) ?? { key: req.key, count: 0, totalMs: 0, maxMs: 0 };
      s.count++;
      s.totalMs += ms;
      s.maxMs = Math.max(s.maxMs, ms);
      stats.set(req.key, s);
    });
    client.on('data', (d: Buffer) => {
      server.write(d);
      fromClient(d);
    });
    server.on('data', (d: Buffer) => {
      client.write(d);
      fromServer(d);
    });
    const close = () => {
      client.destroy();
      server.destroy();
      sockets.delete(client);
      sockets.delete(server);
    };
    client.on('close', close).on('error', close);
    server.on('close', close).on('error', close);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  const url = new URL(upstreamUrl);
  url.host = `127.0.0.1:${port}`;
  return {
    url: url.toString(),
    reset: () => stats.clear(),
    /**
     * The top commands by summed latency, one per line, with their share of the total. BENCH_STORE_TOP
     * (default 12) lists more: counting every command per operation needs the short tail too.
     */
    report(top = Number(process.env.BENCH_STORE_TOP ?? 12)): string {
      const rows = [...stats.values()].sort((a, b) => b.totalMs - a.totalMs);
      const total = rows.reduce((t, r) => t + r.totalMs, 0);
      const count = rows.reduce((t, r) => t + r.count, 0);
      const lines = rows
        .slice(0, top)
        .map(
          (r) =>
            `  ${r.key.padEnd(44)} ${String(r.count).padStart(7)} × ${(r.totalMs / r.count).toFixed(1).padStart(7)} ms avg, max ${r.maxMs.toFixed(0).padStart(5)} ms = ${((100 * r.totalMs) / (total || 1)).toFixed(1).padStart(5)} %`,
        );
      return [`store commands by summed latency (${count} commands, ${(total / 1000).toFixed(1)} s in all):`, ...lines].join(
        '\n',
      );
    },
    async stop() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
