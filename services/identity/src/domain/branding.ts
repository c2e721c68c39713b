import { createHash } from 'node:crypto';
import { invalid } from '@signet/kit';
import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';

/**
 * An organisation's branding, checked (issue 34 item 4). Pure: the use case stores what this returns.
 * - display name: 1–100 characters, no control characters (shown in mails' subjects and the page);
 * - colour: #rrggbb; white text on it must reach WCAG AA's 4.5:1 (the page's buttons and the mails'
 *   header and button are white on it), else refused with the ratio and a darker colour that passes;
 * - reply-to: an email address;
 * - logo: PNG or JPEG only (SVG and everything else refused: a script or an external reference can
 *   ride in an SVG), at most 512 KB as uploaded, 16–1024 px a side, decoded and re-encoded as PNG
 *   (drops every chunk and metadata but the pixels), at most 512 KB re-encoded.
 */
export const MAX_LOGO_BYTES = 512 * 1024;
export const MAX_LOGO_SIDE = 1024;
export const MIN_LOGO_SIDE = 16;
export const MIN_CONTRAST = 4.5;

// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;
const EMAIL =
  /^[^\s@<>(),;:"\\[\]]{1,64}@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/;
const HEX = /^#[0-9a-f]{6}$/;

export function displayNameOf(raw: string): string {
  const name = raw.trim().normalize('NFC');
  if (name.length > 100) throw invalid('display_name: must be at most 100 characters');
  if (CONTROL.test(name)) throw invalid('display_name: must not contain control characters');
  return name;
}

export function replyToOf(raw: string): string {
  const email = raw.trim();
  if (email && (email.length > 254 || !EMAIL.test(email))) throw invalid('reply_to: is not an email address');
  return email;
}

/** sRGB relative luminance (WCAG 2.x). */
export function luminance(hex: string): number {
  const c = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16) / 255);
  const [r, g, b] = c.map((v) => (v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4)) as [number, number, number];
  return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

/** The contrast of white text on the colour, 1–21. */
export const contrastWithWhite = (hex: string) => 1.05 / (luminance(hex) + 0.05);

/** The colour darkened step by step until white text on it reaches 4.5:1 (a suggestion for the 400). */
export function darkenToContrast(hex: string): string {
  const rgb = [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  for (let f = 1; f > 0; f -= 0.02) {
    const c = `#${rgb
      .map((v) =>
        Math.round(v * f)
          .toString(16)
          .padStart(2, '0'),
      )
      .join('')}`;
    if (contrastWithWhite(c) >= MIN_CONTRAST) return c;
  }
  return '#000000';
}

export function colorOf(raw: string): string {
  const color = raw.trim().toLowerCase();
  if (!color) return '';
  if (!HEX.test(color)) throw invalid('color: must be #rrggbb (six hex digits)');
  const ratio = contrastWithWhite(color);
  if (ratio < MIN_CONTRAST)
    throw invalid(
      `color: white text on ${color} has a contrast of ${ratio.toFixed(2)}:1; WCAG AA needs ${MIN_CONTRAST}:1 — use a darker colour, e.g. ${darkenToContrast(color)}`,
      'LOW_CONTRAST',
    );
  return color;
}

export type Logo = { png: Buffer; sha256: string; width: number; height: number };

const PNG_MAGIC = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG_MAGIC = Buffer.from([0xff, 0xd8, 0xff]);

/** Decodes a PNG or JPEG within bounds and re-encodes it as a plain RGBA PNG. */
export function logoOf(bytes: Uint8Array): Logo {
  const buf = Buffer.from(bytes);
  if (buf.length === 0) throw invalid('logo: is empty');
  if (buf.length > MAX_LOGO_BYTES) throw invalid(`logo: at most ${MAX_LOGO_BYTES / 1024} KB`);
  const isPng = buf.subarray(0, 8).equals(PNG_MAGIC);
  const isJpeg = buf.subarray(0, 3).equals(JPEG_MAGIC);
  if (!isPng && !isJpeg) {
    const head = buf.subarray(0, 256).toString('utf8').trimStart().toLowerCase();
    const svg = head.startsWith('<?xml') || head.startsWith('<svg') || head.includes('<svg');
    throw invalid(svg ? 'logo: SVG is not accepted; upload a PNG or JPEG' : 'logo: must be a PNG or JPEG image', 'LOGO_TYPE');
  }
  let img: { width: number; height: number; data: Buffer };
  try {
    if (isPng) {
      // The IHDR's size first: a small file can declare a huge image (a decompression bomb).
      if (buf.length >= 24 && (buf.readUInt32BE(16) > MAX_LOGO_SIDE || buf.readUInt32BE(20) > MAX_LOGO_SIDE)) throw tooBig();
      img = PNG.sync.read(buf);
    } else {
      const size = jpegSize(buf);
      if (size && (size.width > MAX_LOGO_SIDE || size.height > MAX_LOGO_SIDE)) throw tooBig();
      const d = jpeg.decode(buf, { useTArray: true, maxResolutionInMP: 2, maxMemoryUsageInMB: 64 });
      img = { width: d.width, height: d.height, data: Buffer.from(d.data) };
    }
  } catch (err) {
    if (err instanceof Error && err.message.startsWith('logo:')) throw err;
    throw invalid('logo: the image could not be decoded', 'LOGO_UNREADABLE');
  }
  if (img.width > MAX_LOGO_SIDE || img.height > MAX_LOGO_SIDE) throw tooBig();
  if (img.width < MIN_LOGO_SIDE || img.height < MIN_LOGO_SIDE)
    throw invalid(`logo: at least ${MIN_LOGO_SIDE}×${MIN_LOGO_SIDE} pixels`);
  const out = new PNG({ width: img.width, height: img.height });
  img.data.copy(out.data);
  const png = PNG.sync.write(out, { colorType: 6 });
  if (png.length > MAX_LOGO_BYTES)
    throw invalid(`logo: more than ${MAX_LOGO_BYTES / 1024} KB once re-encoded; use a smaller or simpler image`);
  return { png, sha256: createHash('sha256').update(png).digest('hex'), width: img.width, height: img.height };
}

const tooBig = () => invalid(`logo: at most ${MAX_LOGO_SIDE}×${MAX_LOGO_SIDE} pixels`);

/** A JPEG's size from its first SOF marker, before decoding (so a huge one is refused cheaply). */
function jpegSize(buf: Buffer): { width: number; height: number } | undefined {
  let i = 2;
  while (i + 9 < buf.length) {
    if (buf[i] !== 0xff) return undefined;
    const marker = buf[i + 1]!;
    const len = buf.readUInt16BE(i + 2);
    if (marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker))
      return { height: buf.readUInt16BE(i + 5), width: buf.readUInt16BE(i + 7) };
    i += 2 + len;
  }
  return undefined;
}
