import { describe, expect, it } from 'vitest';
import { checkSealable } from './pdf-check.js';

/** A PDF written object by object with its xref table; `trailerExtra` is added to the trailer dictionary. */
function pdf(objects: string[], trailerExtra = ''): Buffer {
  let out = '%PDF-1.7\n%\xe2\xe3\xcf\xd3\n';
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const o of offsets) out += `${String(o).padStart(10, '0')} 00000 n \n`;
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra}>>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

const content = 'BT /F1 18 Tf 72 720 Td (Hello) Tj ET';
const onePage = pdf([
  '<< /Type /Catalog /Pages 2 0 R >>',
  '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
  '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
  `<< /Length ${content.length} >>\nstream\n${content}\nendstream`,
]);

describe('checkSealable (pdf-lib, loaded as the ledger sealer loads it)', () => {
  it('accepts a well-formed PDF and counts its pages', async () => {
    expect(await checkSealable(onePage)).toEqual({ ok: true, pages: 1 });
  });

  it('accepts the minimal catalog with an empty page tree the tests use (the sealer appends its audit trail to it)', async () => {
    const tiny = Buffer.from(
      '%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n% x\ntrailer<</Root 1 0 R>>\n%%EOF\n',
    );
    expect(await checkSealable(tiny)).toEqual({ ok: true, pages: 0 });
  });

  it.each([
    ['a header without a version (%PDF-xxxx)', Buffer.from('%PDF-xxxx\n1 0 obj<</Type/Catalog>>endobj\n%%EOF\n'), 'no_version'],
    ['a header alone', Buffer.from('%PDF-'), 'no_version'],
    ['a PDF cut to 100 bytes', onePage.subarray(0, 100), 'damaged'],
    ['a PDF cut before its page tree', onePage.subarray(0, onePage.indexOf('2 0 obj')), 'damaged'],
    ['a catalog whose page tree is missing', pdf(['<< /Type /Catalog /Pages 9 0 R >>']), 'damaged'],
    ['bytes after a valid header', Buffer.concat([Buffer.from('%PDF-1.7\n'), Buffer.alloc(4096, 0x41)]), 'damaged'],
    [
      'an encrypted PDF (an /Encrypt dictionary in the trailer)',
      pdf(
        [
          '<< /Type /Catalog /Pages 2 0 R >>',
          '<< /Type /Pages /Kids [] /Count 0 >>',
          '<< /Filter /Standard /V 1 /R 2 /O <00> /U <00> /P -4 >>',
        ],
        '/Encrypt 3 0 R /ID [<01> <01>] ',
      ),
      'encrypted',
    ],
  ] as const)('refuses %s (%s)', async (_name, bytes, reason) => {
    const verdict = await checkSealable(bytes);
    expect(verdict).toMatchObject({ ok: false, reason });
    expect(verdict.ok ? '' : verdict.detail).not.toMatch(/\p{Cc}/u);
  });
});
