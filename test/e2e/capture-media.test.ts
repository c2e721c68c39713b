/**
 * Media that cannot lie (issue 15, item 5), through the gateway against the real ceremony: a refusal
 * while the upload is still arriving is answered at once and the rest is never read; a video is
 * judged by its decoded stream, never its header (an MP4 saying 10 s while carrying 65 s), and held
 * to a quality floor; genuine captures still pass. That nothing refused is stored
 * is checked against the bucket in services/ceremony/test/captures-at-rest.int.test.ts.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServices } from '../harness/services.js';
import { makeJpeg, makeMp4, makeTinyWebm, makeWebm } from '../fixtures/ceremony-media.js';
import { rewriteMp4Duration, statedMp4Durations } from '../fixtures/mp4-duration.js';
import { pacedUpload, webmLike, type PacedPart } from '../fixtures/paced-upload.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../support/ceremony-helpers.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = {
  BUCKET_DOCUMENTS: `cm-docs-${suffix}`,
  BUCKET_REFERENCES: `cm-refs-${suffix}`,
  BUCKET_CAPTURES: `cm-caps-${suffix}`,
};
const MB = 1024 * 1024;

describe('capture media through the gateway: early refusal, decoded duration, quality floor', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let tx: CreatedTx;
  let nonce = '';
  const dir = mkdtempSync(join(tmpdir(), 'signet-capture-media-'));
  let jpeg: Buffer;
  const ip = { 'x-forwarded-for': `10.77.${Math.floor(Math.random() * 250)}.1` };
  const captureUrl = () => `${stack.gatewayUrl}/api/sign/${tx.token}/capture`;
  const frame = (): PacedPart => ({ name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: jpeg });
  const upload = (video: Buffer, filename: string, contentType: string, n = nonce) =>
    send(stack.gatewayUrl, 'POST', `/api/sign/${tx.token}/capture`, {
      headers: ip,
      parts: [
        { name: 'nonce', value: n },
        { name: 'video', filename, contentType, data: video },
        { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: jpeg },
      ],
    });
  const metrics = async (service: string) => (await fetch(`http://127.0.0.1:${stack.opsPorts[service]}/metrics`)).text();
  const counter = (text: string, name: string, label: string) => {
    const m = new RegExp(`^${name}\\{[^}]*${label}[^}]*\\} (\\d+)`, 'm').exec(text);
    return m ? Number(m[1]) : 0;
  };

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    const acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Mary Somerville', stack.env.TRANSACTION_ADDR);
    jpeg = makeJpeg(dir);
    const consent = await send(stack.gatewayUrl, 'POST', `/api/sign/${tx.token}/consent`, {
      headers: ip,
      json: { consent_text_version: 'consent-v1' },
    });
    expect(consent.status, JSON.stringify(consent.body)).toBe(201);
    const ch = await send(stack.gatewayUrl, 'GET', `/api/sign/${tx.token}/challenge`, { headers: ip });
    expect(ch.status, JSON.stringify(ch.body)).toBe(200);
    nonce = (ch.body as { nonce: string }).nonce;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('a wrong nonce with a 20 MB video: 409 while the body is still arriving, the upload closed unread', async () => {
    const stale = nonce.replace(/^./, (c) => (c === 'f' ? 'e' : 'f'));
    const r = await pacedUpload(
      captureUrl(),
      [
        { name: 'nonce', value: stale },
        { name: 'video', filename: 'video.webm', contentType: 'video/webm', size: 20 * MB, chunks: webmLike(20 * MB) },
        frame(),
      ],
      // 64 KB every 10 ms: the 20 MB would take more than 3 s to write.
      { headers: ip, declareLength: true, pauseMs: () => 10 },
    );
    console.info(
      `stale nonce: 409 after ${r.msToResponse.toFixed(0)} ms, ${(r.sentAtResponse / MB).toFixed(1)} of 20 MB written`,
    );
    expect(r.status, JSON.stringify(r.body)).toBe(409);
    expect(r.body.detail).toMatch(/expired or has been replaced/);
    expect(r.headers.connection).toBe('close');
    expect(r.sentAtResponse).toBeLessThan(r.total / 2);
  });

  it('a 60 MB video: 413 as soon as it passes 50 MB, and a body declared longer than any capture before it is read', async () => {
    const big = (size: number): PacedPart => ({
      name: 'video',
      filename: 'video.webm',
      contentType: 'video/webm',
      size,
      chunks: webmLike(size),
    });
    // Declared longer than a 50 MB video and a 10 MB frame can be: refused before any of it is read.
    const declared = await pacedUpload(captureUrl(), [{ name: 'nonce', value: nonce }, big(64 * MB), frame()], {
      headers: ip,
      declareLength: true,
      pauseMs: () => 10,
    });
    console.info(`64 MB declared: 413 after ${(declared.sentAtResponse / MB).toFixed(1)} MB written`);
    expect(declared.status, JSON.stringify(declared.body)).toBe(413);
    expect(declared.body.detail).toMatch(/capture is too large/);
    expect(declared.headers.connection).toBe('close');
    expect(declared.sentAtResponse).toBeLessThan(declared.total / 2);
    // 60 MB, chunked: refused when the video passes 50 MB; the last 10 MB go slowly and are never needed.
    const chunked = await pacedUpload(captureUrl(), [{ name: 'nonce', value: nonce }, big(60 * MB), frame()], {
      headers: ip,
      declareLength: false,
      chunkBytes: 256 * 1024,
      pauseMs: (sent) => (sent < 50 * MB ? 0 : 20),
    });
    console.info(`60 MB chunked: 413 after ${(chunked.sentAtResponse / MB).toFixed(1)} MB written`);
    expect(chunked.status, JSON.stringify(chunked.body)).toBe(413);
    expect(chunked.body.detail).toMatch(/video is too large/);
    expect(chunked.headers.connection).toBe('close');
    expect(chunked.sentAtResponse).toBeLessThan(chunked.total);
    const gw = await metrics('gateway');
    expect(counter(gw, 'signet_gateway_capture_uploads_cut_total', 'status="413"')).toBe(2);
    expect(counter(gw, 'signet_gateway_capture_uploads_cut_total', 'status="409"')).toBe(1);
  });

  it('an MP4 whose header says 10 s but carries 65 s is refused (400) by its decoded length', async () => {
    const lying = rewriteMp4Duration(makeMp4(dir, 65), 10);
    expect(statedMp4Durations(lying)).toEqual({ movie: 10, media: [10, 10] });
    const r = await upload(lying, 'video.mp4', 'video/mp4');
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.detail).toMatch(/header says the video lasts 10\.0 s but its frames run 65\.0 s/);
  });

  it('a 160×120 video at 150 kb/s is refused (400): under the quality floor', async () => {
    const r = await upload(makeTinyWebm(dir), 'video.webm', 'video/webm');
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(r.body.detail).toMatch(/160×120, smaller than 320×240/);
  });

  it('the genuine fixture of the ceremony tests still passes; each refusal was counted by its reason', async () => {
    const r = await upload(makeWebm(dir, 3), 'video.webm', 'video/webm');
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.body.duration_seconds).toBeCloseTo(3, 0);
    const m = await metrics('ceremony');
    const captures = (result: string) => counter(m, 'signet_ceremony_captures_total', `result="${result}"`);
    expect(captures('stale_nonce')).toBe(1);
    expect(captures('video_duration_mismatch')).toBe(1);
    expect(captures('video_resolution_too_low')).toBe(1);
    expect(captures('accepted')).toBe(1);
  });
});
