import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { findOriginal } from './signed-pdf.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');
const pdf = (body: string) => Buffer.from(`%PDF-1.4\n${body}`, 'latin1');
/** What the ledger writes after an upload: a line feed when it does not end with one, then its update. */
const update = (original: Buffer) =>
  Buffer.concat([
    original,
    Buffer.from(/[\r\n]$/.test(original.toString('latin1')) ? '' : '\n'),
    Buffer.from('9 0 obj\n<<>>\nendobj\nxref\n%%EOF\n'),
  ]);

describe('findOriginal: the first revision is the upload whose SHA-256 was certified', () => {
  const cases: [string, Buffer][] = [
    ['ends with %%EOF and a line feed', pdf('1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF\n')],
    ['ends with %%EOF and CR LF', pdf('trailer<<>>\r\n%%EOF\r\n')],
    ['ends with %%EOF and no line end', pdf('trailer<<>>\n%%EOF')],
    ['has its own incremental update (two %%EOF)', pdf('trailer<<>>\n%%EOF\n2 0 obj<<>>endobj\ntrailer<</Prev 9>>\n%%EOF\n')],
    ['has white space and NUL padding after %%EOF', pdf('trailer<<>>\n%%EOF\n\n\u0000\u0000 \n')],
    ['has other bytes after its last %%EOF', pdf('trailer<<>>\n%%EOF\n% a comment a tool left\nmore junk')],
  ];
  for (const [name, original] of cases)
    it(`finds an upload that ${name}`, () => {
      const signed = update(original);
      expect(findOriginal(signed, signed.length, sha(original))).toBe(original.length);
    });

  it('finds nothing for another document, a changed byte, or a limit before the upload ends', () => {
    const original = cases[3]![1];
    const signed = update(original);
    expect(findOriginal(signed, signed.length, sha(pdf('something else\n%%EOF\n')))).toBeUndefined();
    const changed = Buffer.from(signed);
    changed[3] = 0x41;
    expect(findOriginal(changed, changed.length, sha(original))).toBeUndefined();
    expect(findOriginal(signed, original.length - 1, sha(original))).toBeUndefined();
    // an earlier revision of the upload is not the upload
    const first = original.subarray(0, original.indexOf('%%EOF') + 6);
    expect(findOriginal(signed, signed.length, sha(original))).not.toBe(first.length);
  });
});
