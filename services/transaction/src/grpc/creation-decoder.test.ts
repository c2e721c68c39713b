import { describe, expect, it } from 'vitest';
import { transactionV1 } from '@signet/proto';
import { decodeCreationChunk, transactionService } from './creation-decoder.js';

const { CreateTransactionChunk } = transactionV1;
const encode = (m: transactionV1.CreateTransactionChunk) => Buffer.from(CreateTransactionChunk.encode(m).finish());

describe('decodeCreationChunk', () => {
  it('decodes as the generated decoder does, file bytes of every length-prefix size', () => {
    for (const n of [0, 1, 127, 128, 300, 16_383, 16_384, 256 * 1024, 2_097_152 + 3]) {
      const bytes = Buffer.alloc(n, n & 0xff);
      for (const $case of ['document', 'reference'] as const) {
        const wire = encode({ part: { $case, value: bytes } });
        const ours = decodeCreationChunk(wire).part!;
        const generated = CreateTransactionChunk.decode(wire).part!;
        expect(ours.$case).toBe(generated.$case);
        // Buffer.equals: toEqual compares megabytes element by element.
        expect(Buffer.isBuffer(ours.value) && (ours.value as Buffer).equals(generated.value as Buffer)).toBe(true);
      }
    }
    const others: transactionV1.CreateTransactionChunk[] = [
      { part: { $case: 'begin', value: transactionV1.CreateTransactionBegin.fromPartial({ ownerId: 'u1', orgName: 'Acme' }) } },
      { part: { $case: 'signerReference', value: { signer: 2, data: Buffer.from('png') } } },
      { part: { $case: 'fields', value: transactionV1.CreateTransactionFields.fromPartial({ signerName: 'Ada' }) } },
      { part: undefined },
    ];
    for (const m of others) expect(decodeCreationChunk(encode(m))).toEqual(CreateTransactionChunk.decode(encode(m)));
  });

  it('returns file bytes as a view of the message, without a copy', () => {
    const wire = encode({ part: { $case: 'document', value: Buffer.from('%PDF-1.7 body') } });
    const part = decodeCreationChunk(wire).part;
    expect(part?.$case).toBe('document');
    const value = part!.value as Buffer;
    expect(value.buffer).toBe(wire.buffer);
    expect(value.toString()).toBe('%PDF-1.7 body');
  });

  it('leaves a message of more than one field (or a short one) to the generated decoder', () => {
    const doc = encode({ part: { $case: 'document', value: Buffer.from('first') } });
    const two = Buffer.concat([doc, encode({ part: { $case: 'reference', value: Buffer.from('second') } })]);
    expect(decodeCreationChunk(two)).toEqual(CreateTransactionChunk.decode(two));
    expect(decodeCreationChunk(two).part).toMatchObject({ $case: 'reference' });
    expect(() => decodeCreationChunk(doc.subarray(0, doc.length - 1))).toThrow();
  });

  it('is the CreateTransaction request decoder of the service definition', () => {
    expect(transactionService.createTransaction.requestDeserialize).toBe(decodeCreationChunk);
    expect(transactionService.getTransaction).toBe(transactionV1.TransactionServiceService.getTransaction);
  });
});
