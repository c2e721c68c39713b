import type { Connection } from 'mongoose';

/**
 * One connection per service, to its own database. The code must run on FerretDB 1.x as well as
 * MongoDB: no multi-document transactions, TTL indexes, $lookup, $elemMatch or positional updates.
 */
export async function connectMongo(url: string, dbName?: string): Promise<Connection> {
  // Loaded here, not when the kit is imported: main.ts starts tracing first, so the MongoDB
  // instrumentation sees the driver load (tracing.ts).
  const { default: mongoose } = await import('mongoose');
  // Mongoose otherwise takes a stack trace at every query's exec, only to show it if that query object
  // is ever executed twice (a bug it reports as "Query was already executed"). Formatting the trace was
  // 2-3 % of the transaction and billing services' CPU in the creation benchmark (issue 20); the error
  // itself is still raised, without the first execution's stack.
  mongoose.set('skipOriginalStackTraces', true);
  const conn = mongoose.createConnection(url, {
    ...(dbName ? { dbName } : {}),
    serverSelectionTimeoutMS: 5000,
    maxPoolSize: 20,
  });
  await conn.asPromise();
  return conn;
}

export async function pingMongo(conn: Connection): Promise<void> {
  if (!conn.db) throw new Error('mongo not connected');
  await conn.db.admin().command({ ping: 1 });
}

/** True when err is a duplicate-key error (a unique index said no). */
export function isDuplicateKey(err: unknown): boolean {
  return typeof err === 'object' && err !== null && 'code' in err && (err as { code: unknown }).code === 11000;
}
