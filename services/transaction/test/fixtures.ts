/** Small real inputs for transaction tests: a PDF, decodable PNG/JPEG photos, and a multipart body builder. */
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

export function tinyPdf(text = 'hello'): Buffer {
  return Buffer.from(
    `%PDF-1.4\n1 0 obj<</Type/Catalog/Pages 2 0 R>>endobj\n2 0 obj<</Type/Pages/Kids[]/Count 0>>endobj\n% ${text}\ntrailer<</Root 1 0 R>>\n%%EOF\n`,
  );
}

export function pngPhoto(w = 16, h = 16): Buffer {
  const png = new PNG({ width: w, height: h });
  for (let i = 0; i < png.data.length; i += 4) {
    png.data[i] = (i * 7) & 255;
    png.data[i + 1] = (i * 3) & 255;
    png.data[i + 2] = 128;
    png.data[i + 3] = 255;
  }
  return PNG.sync.write(png);
}

export function jpegPhoto(w = 16, h = 16): Buffer {
  const data = Buffer.alloc(w * h * 4, 0x80);
  return Buffer.from(jpeg.encode({ data, width: w, height: h }, 80).data);
}

export { multipart, type Part } from '../../../test/fixtures/multipart.js';

/** `size` bytes of a "PDF" generated in 1 MB chunks, never held whole. */
export function bigPdf(size: number): () => AsyncIterable<Buffer> {
  return async function* () {
    const block = Buffer.alloc(1024 * 1024, 0x41);
    block.write('%PDF-1.7\n', 0);
    let sent = 0;
    while (sent < size) {
      const n = Math.min(block.length, size - sent);
      const chunk = sent === 0 ? block.subarray(0, n) : Buffer.alloc(n, 0x41);
      sent += n;
      yield chunk;
    }
  };
}
