/**
 * How a capture reaches ffmpeg: piped, or — for an mp4 whose index comes last — served from
 * memory over loopback HTTP with byte ranges (media.ts).
 */
import { randomBytes } from 'node:crypto';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import parseRange from 'range-parser';

/** True when the buffer is an ISO-BMFF (mp4/mov) file, which ffmpeg may need to seek in. */
export function isMp4(b: Buffer): boolean {
  return b.length > 12 && b.toString('latin1', 4, 8) === 'ftyp';
}

/**
 * An mp4 whose `moov` atom sits after `mdat` cannot be demuxed from a pipe (ffmpeg must seek), so
 * such input is served to ffmpeg from memory over loopback HTTP, which supports byte ranges: on
 * 127.0.0.1, under a random 128-bit path, for this one call. WebM and fast-start mp4 are piped.
 */
export async function withMediaInput<T>(media: Buffer, fn: (inputArg: string, stdin: Buffer | null) => Promise<T>): Promise<T> {
  if (!isMp4(media) || moovFirst(media)) return fn('pipe:0', media);
  const served = await serveFromMemory(media);
  try {
    return await fn(served.url, null);
  } finally {
    served.close();
  }
}

async function serveFromMemory(media: Buffer): Promise<{ url: string; close(): void }> {
  const path = `/${randomBytes(16).toString('hex')}`;
  const server = createServer((req, res) => {
    if (req.url !== path || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404).end();
      return;
    }
    const ranges = req.headers.range ? parseRange(media.length, req.headers.range, { combine: true }) : null;
    if (ranges === -1) {
      res.writeHead(416, { 'content-range': `bytes */${media.length}` }).end();
      return;
    }
    let body = media;
    if (Array.isArray(ranges) && ranges.type === 'bytes' && ranges.length === 1) {
      const { start, end } = ranges[0]!;
      body = media.subarray(start, end + 1);
      res.statusCode = 206;
      res.setHeader('content-range', `bytes ${start}-${end}/${media.length}`);
    }
    res.setHeader('accept-ranges', 'bytes');
    res.setHeader('content-length', body.length);
    res.setHeader('content-type', 'application/octet-stream');
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${path}`,
    close() {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** Walk top-level mp4 boxes: true when `moov` comes before `mdat`. */
function moovFirst(b: Buffer): boolean {
  let off = 0;
  while (off + 8 <= b.length) {
    let size = b.readUInt32BE(off);
    const type = b.toString('latin1', off + 4, off + 8);
    if (type === 'moov') return true;
    if (type === 'mdat') return false;
    if (size === 1 && off + 16 <= b.length) size = Number(b.readBigUInt64BE(off + 8));
    if (size < 8) return false;
    off += size;
  }
  return false;
}
