import { randomUUID } from 'node:crypto';
import type { Connection } from 'mongoose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectMongo } from '@signet/kit';
import { infra } from '../../../test/harness/services.js';
import { createCredentialRepository } from '../src/store/credential.repository.js';
import { createForensicRepository } from '../src/store/forensic.repository.js';
import { createSessionRepository } from '../src/store/session.repository.js';

// Issue 19 item 7: a service's start adds the indexes its schema declares and never drops one it does not
// know (an operator's index, or one a newer replica added during a rolling update). Mongoose's syncIndexes()
// drops every index missing from the schema; the repositories must not use it.
describe('index sync at start (real store)', () => {
  let conn: Connection;
  beforeAll(async () => {
    conn = await connectMongo(infra().MONGO_URL, `idx-${randomUUID().slice(0, 8)}`);
  });
  afterAll(async () => {
    await conn?.db?.dropDatabase();
    await conn?.close();
  });

  const cases = [
    ['sessions', createSessionRepository],
    ['webauthn_credentials', createCredentialRepository],
    ['forensic_batches', createForensicRepository],
  ] as const;

  it.each(cases)('%s: keeps an index it does not declare and adds its own', async (collection, create) => {
    const coll = conn.db!.collection(collection);
    await coll.insertOne({ _id: `seed-${collection}` as never, operator_field: 1 });
    await coll.createIndex({ operator_field: 1 }, { name: 'operator_added' });
    await create(conn).init();
    const names = (await coll.indexes()).map((i) => i.name);
    expect(names).toContain('operator_added');
    // The schema's own indexes are there too (more than _id_ and the operator's).
    expect(names.length).toBeGreaterThan(2);
    // A second start is a no-op and still keeps it.
    await create(conn).init();
    expect((await coll.indexes()).map((i) => i.name)).toContain('operator_added');
  });
});
