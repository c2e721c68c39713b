import { describe, expect, it } from 'vitest';
import { transactionV1 } from '@signet/proto';
import { serializeChunk } from './create.upload.js';

describe('serializeChunk (file bytes written once into the CreateTransaction wire message)', () => {
  it.each([0, 1, 127, 128, 16_383, 16_384, 300_000, 2_097_152 + 5])(
    '%i bytes decode as the generated decoder reads them',
    (n) => {
      const bytes = Buffer.alloc(n);
      for (let i = 0; i < n; i++) bytes[i] = (i * 31 + 7) & 0xff;
      // Split unevenly, as busboy delivers them.
      const chunks = [bytes.subarray(0, Math.floor(n / 3)), bytes.subarray(Math.floor(n / 3), n - 1), bytes.subarray(n - 1)];
      for (const field of ['document', 'reference'] as const) {
        const wire = serializeChunk({ bytes: field, chunks: n ? chunks : [], length: n });
        const generated = Buffer.from(
          transactionV1.CreateTransactionChunk.encode({ part: { $case: field, value: bytes } }).finish(),
        );
        expect(wire.equals(generated)).toBe(true);
        const back = transactionV1.CreateTransactionChunk.decode(wire);
        expect(back.part?.$case).toBe(field);
        expect(Buffer.from(back.part!.value as Uint8Array).equals(bytes)).toBe(true);
      }
    },
  );

  it('encodes the other messages with the generated encoder', () => {
    const msg = {
      part: {
        $case: 'begin' as const,
        value: { ownerId: 'u1', orgName: 'Org', idempotencyKey: 'k', senderEmail: 'ada@example.com', test: true },
      },
    };
    expect(transactionV1.CreateTransactionChunk.decode(serializeChunk(msg))).toEqual(msg);
  });
});
