import jpeg from 'jpeg-js';
import { PNG } from 'pngjs';
import { describe, expect, it } from 'vitest';
import { colorOf, contrastWithWhite, darkenToContrast, displayNameOf, logoOf, replyToOf } from './branding.js';

const png = (w: number, h: number, extra?: Buffer) => {
  const p = new PNG({ width: w, height: h });
  p.data.fill(0x80);
  const out = PNG.sync.write(p);
  return extra ? Buffer.concat([out.subarray(0, out.length - 12), extra, out.subarray(out.length - 12)]) : out;
};

describe('branding checks', () => {
  it('computes WCAG contrast of white text: 21:1 on black, 1:1 on white, Signet’s blue passes', () => {
    expect(contrastWithWhite('#000000')).toBeCloseTo(21, 5);
    expect(contrastWithWhite('#ffffff')).toBeCloseTo(1, 5);
    expect(contrastWithWhite('#0b5cad')).toBeGreaterThan(4.5);
    // #767676 is the lightest grey that passes AA on white; #777777 fails.
    expect(contrastWithWhite('#767676')).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite('#777777')).toBeLessThan(4.5);
  });

  it('refuses a colour white text cannot be read on, naming the ratio and a darker colour that passes', () => {
    expect(colorOf(' #0B5CAD ')).toBe('#0b5cad');
    expect(colorOf('')).toBe('');
    expect(() => colorOf('#ffcc00')).toThrow(
      /^color: white text on #ffcc00 has a contrast of 1\.\d\d:1; WCAG AA needs 4\.5:1 — use a darker colour, e\.g\. #[0-9a-f]{6}$/,
    );
    const suggestion = /e\.g\. (#[0-9a-f]{6})/.exec(
      (() => {
        try {
          colorOf('#ffcc00');
        } catch (e) {
          return (e as Error).message;
        }
        return '';
      })(),
    )![1]!;
    expect(contrastWithWhite(suggestion)).toBeGreaterThanOrEqual(4.5);
    expect(contrastWithWhite(darkenToContrast('#22cc88'))).toBeGreaterThanOrEqual(4.5);
    for (const bad of ['red', '#fff', '#12345g', 'rgb(0,0,0)', '#0b5cad;x'])
      expect(() => colorOf(bad)).toThrow(/^color: must be #rrggbb/);
  });

  it('checks the display name and the reply-to address', () => {
    expect(displayNameOf('  Acme Legal ')).toBe('Acme Legal');
    expect(() => displayNameOf('x'.repeat(101))).toThrow(/display_name: must be at most 100/);
    expect(() => displayNameOf('Acme\nBcc: x')).toThrow(/control characters/);
    expect(replyToOf(' legal@acme.example ')).toBe('legal@acme.example');
    expect(replyToOf('')).toBe('');
    for (const bad of ['nobody', 'a@b', 'a b@c.de', 'x@y.z\r\nBcc: e@f.gh']) expect(() => replyToOf(bad)).toThrow(/reply_to/);
  });

  it('re-encodes a PNG (dropping its other chunks) and a JPEG to a plain PNG, hashed', () => {
    // A tEXt chunk rides in the upload; the re-encoded PNG carries only the pixels.
    const text = Buffer.from('tEXtComment\u0000<script>alert(1)</script>', 'latin1');
    const chunk = Buffer.alloc(12 + text.length - 4);
    chunk.writeUInt32BE(text.length - 4, 0);
    text.copy(chunk, 4);
    const out = logoOf(png(64, 32, chunk));
    expect(out.png.subarray(1, 4).toString()).toBe('PNG');
    expect(out.png.includes(Buffer.from('script'))).toBe(false);
    expect([out.width, out.height]).toEqual([64, 32]);
    expect(out.sha256).toMatch(/^[0-9a-f]{64}$/);
    const j = jpeg.encode({ width: 40, height: 20, data: Buffer.alloc(40 * 20 * 4, 0x90) }, 90).data;
    const fromJpeg = logoOf(j);
    expect([fromJpeg.width, fromJpeg.height]).toEqual([40, 20]);
    expect(fromJpeg.png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('refuses SVG, other types, unreadable images and images out of bounds', () => {
    expect(() => logoOf(Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'))).toThrow(
      /^logo: SVG is not accepted/,
    );
    expect(() => logoOf(Buffer.from('<?xml version="1.0"?><svg/>'))).toThrow(/SVG is not accepted/);
    expect(() => logoOf(Buffer.from('GIF89a......'))).toThrow(/^logo: must be a PNG or JPEG/);
    expect(() => logoOf(Buffer.alloc(0))).toThrow(/empty/);
    expect(() => logoOf(Buffer.concat([png(32, 32).subarray(0, 40), Buffer.alloc(20)]))).toThrow(/could not be decoded/);
    expect(() => logoOf(png(8, 8))).toThrow(/at least 16×16/);
    expect(() => logoOf(png(1100, 20))).toThrow(/at most 1024×1024/);
    expect(() => logoOf(Buffer.alloc(600 * 1024, 1))).toThrow(/at most 512 KB/);
    // A small file declaring a huge image is refused from its header, before decoding.
    const bomb = png(32, 32);
    bomb.writeUInt32BE(60000, 16);
    expect(() => logoOf(bomb)).toThrow(/at most 1024×1024/);
  });
});
