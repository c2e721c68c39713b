/**
 * What the ceremony keeps in its captures bucket, read from the bucket itself: every refused capture
 * leaves no object (before consent, before a challenge, a forged or stale nonce, bad or oversized
 * media, a lying MP4, a video under the quality floor, a cancelled link), and an accepted one leaves
 * exactly its frame and video under <transaction>/<signer>/<capture>/. The end-to-end tests
 * (test/e2e/ceremony.test.ts, test/e2e/capture-media.test.ts) check the same refusals through the
 * public API only; these storage assertions moved here from them.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createS3, listKeys } from '@signet/kit';
import type { Account } from '../../../test/harness/accounts.js';
import { infra, startServices } from '../../../test/harness/services.js';
import { bigWebm, makeJpeg, makeMp4, makeTinyWebm, makeWebm, type Part } from '../../../test/fixtures/ceremony-media.js';
import { rewriteMp4Duration } from '../../../test/fixtures/mp4-duration.js';
import { pacedUpload, webmLike, type PacedPart } from '../../../test/fixtures/paced-upload.js';
import { createTransaction, send, senderAccount, type CreatedTx } from '../../../test/support/ceremony-helpers.js';

const suffix = Math.random().toString(16).slice(2, 8);
const BUCKETS = {
  BUCKET_DOCUMENTS: `rest-docs-${suffix}`,
  BUCKET_REFERENCES: `rest-refs-${suffix}`,
  BUCKET_CAPTURES: `rest-caps-${suffix}`,
};
const MB = 1024 * 1024;

describe('the captures bucket after refused and accepted captures (real ceremony, MinIO)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let tx: CreatedTx;
  // A second transaction for the big and lying uploads: a token takes 10 capture requests in 10 minutes.
  let tx2: CreatedTx;
  let nonce2 = '';
  let webm: Buffer;
  let jpeg: Buffer;
  let nonce = '';
  const dir = mkdtempSync(join(tmpdir(), 'signet-captures-at-rest-'));
  const ip = { 'x-forwarded-for': `10.78.${Math.floor(Math.random() * 250)}.1` };
  const s3 = createS3({
    ...(infra() as unknown as { S3_ENDPOINT: string; S3_ACCESS_KEY: string; S3_SECRET_KEY: string }),
    S3_REGION: 'us-east-1',
  });
  const captures = async (id: number) => (await listKeys(s3, BUCKETS.BUCKET_CAPTURES, `${id}/`)).sort();
  const api = (method: string, path: string, init: Parameters<typeof send>[3] = {}) =>
    send(stack.gatewayUrl, method, path, { ...init, headers: { ...ip, ...init.headers } });
  const video = (data: Part extends infer P ? (P extends { data: infer D } ? D : never) : never, filename = 'video.webm') =>
    ({ name: 'video', filename, contentType: filename.endsWith('.mp4') ? 'video/mp4' : 'video/webm', data }) as Part;
  const frame = (data = jpeg): Part => ({ name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data });
  const capture = (token: string, n: string | null, v: Part | null, f: Part | null) =>
    api('POST', `/api/sign/${token}/capture`, {
      parts: [...(n !== null ? [{ name: 'nonce', value: n }] : []), ...(v ? [v] : []), ...(f ? [f] : [])],
    });

  beforeAll(async () => {
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'gateway'], { env: BUCKETS });
    acct = await senderAccount(stack.gatewayUrl);
    tx = await createTransaction(stack.gatewayUrl, acct, 'Ada Lovelace', stack.env.TRANSACTION_ADDR);
    tx2 = await createTransaction(stack.gatewayUrl, acct, 'Mary Somerville', stack.env.TRANSACTION_ADDR);
    webm = makeWebm(dir, 3);
    jpeg = makeJpeg(dir);
    expect((await api('POST', `/api/sign/${tx2.token}/consent`, { json: { consent_text_version: 'consent-v1' } })).status).toBe(
      201,
    );
    const ch = await api('GET', `/api/sign/${tx2.token}/challenge`);
    expect(ch.status, JSON.stringify(ch.body)).toBe(200);
    nonce2 = ch.body.nonce as string;
  });
  afterAll(async () => {
    await stack?.stop();
  });

  it('a capture before consent, before a challenge, or with a nonce never issued stores nothing', async () => {
    expect((await capture(tx.token, 'a'.repeat(64), video(webm), frame())).status).toBe(409);
    expect(await captures(tx.id)).toEqual([]);
    expect((await api('POST', `/api/sign/${tx.token}/consent`, { json: { consent_text_version: 'consent-v1' } })).status).toBe(
      201,
    );
    expect((await capture(tx.token, 'b'.repeat(64), video(webm), frame())).status).toBe(409);
    expect(await captures(tx.id)).toEqual([]);
    const ch = await api('GET', `/api/sign/${tx.token}/challenge`);
    expect(ch.status, JSON.stringify(ch.body)).toBe(200);
    nonce = ch.body.nonce as string;
    expect((await capture(tx.token, 'f'.repeat(64), video(webm), frame())).status).toBe(409);
    expect(await captures(tx.id)).toEqual([]);
  });

  it('text named .webm, a GIF frame, a 51 MB video, a missing frame or nonce store nothing', async () => {
    const replies = [
      await capture(tx.token, nonce, video(Buffer.from('this is not a video, only text\n'.repeat(100))), frame()),
      await capture(tx.token, nonce, video(webm), frame(Buffer.from('GIF89a....'))),
      await capture(tx.token, nonce, video(bigWebm(51 * MB)), frame()),
      await capture(tx.token, nonce, video(webm), null),
      await capture(tx.token, null, video(webm), frame()),
    ];
    expect(replies.map((r) => r.status)).toEqual([400, 400, 413, 400, 400]);
    expect(await captures(tx.id)).toEqual([]);
  });

  it('a stale nonce cut off mid-upload, and videos over 50 MB (declared or chunked), store nothing', async () => {
    const jpegFrame: PacedPart = { name: 'frame', filename: 'frame.jpg', contentType: 'image/jpeg', data: jpeg };
    const url = `${stack.gatewayUrl}/api/sign/${tx2.token}/capture`;
    const big = (size: number) => ({
      name: 'video',
      filename: 'video.webm',
      contentType: 'video/webm',
      size,
      chunks: webmLike(size),
    });
    const stale = nonce2.replace(/^./, (c) => (c === 'f' ? 'e' : 'f'));
    const staleReply = await pacedUpload(url, [{ name: 'nonce', value: stale }, big(20 * MB), jpegFrame], {
      headers: ip,
      declareLength: true,
      pauseMs: () => 10,
    });
    expect(staleReply.status).toBe(409);
    const declared = await pacedUpload(url, [{ name: 'nonce', value: nonce2 }, big(64 * MB), jpegFrame], {
      headers: ip,
      declareLength: true,
      pauseMs: () => 10,
    });
    expect(declared.status).toBe(413);
    const chunked = await pacedUpload(url, [{ name: 'nonce', value: nonce2 }, big(60 * MB), jpegFrame], {
      headers: ip,
      declareLength: false,
      chunkBytes: 256 * 1024,
      pauseMs: (sent) => (sent < 50 * MB ? 0 : 20),
    });
    expect(chunked.status).toBe(413);
    expect(await captures(tx2.id)).toEqual([]);
  });

  it('an MP4 whose header understates its length, and a video under the quality floor, store nothing', async () => {
    const lying = await capture(tx2.token, nonce2, video(rewriteMp4Duration(makeMp4(dir, 65), 10), 'video.mp4'), frame());
    expect(lying.status, JSON.stringify(lying.body)).toBe(400);
    expect(await captures(tx2.id)).toEqual([]);
    const tiny = await capture(tx2.token, nonce2, video(makeTinyWebm(dir)), frame());
    expect(tiny.status, JSON.stringify(tiny.body)).toBe(400);
    expect(await captures(tx2.id)).toEqual([]);
  });

  it('an accepted capture stores exactly its frame and video; the refused replay adds nothing', async () => {
    const r = await capture(tx.token, nonce, video(webm), frame());
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    const keys = await captures(tx.id);
    expect(keys).toEqual([`${tx.id}/0/${r.body.capture_id}/frame.jpg`, `${tx.id}/0/${r.body.capture_id}/video.webm`]);
    const stat = await s3.statObject(BUCKETS.BUCKET_CAPTURES, keys[1]!);
    expect(stat.size).toBe(webm.length);
    expect((await capture(tx.token, nonce, video(webm), frame())).status).toBe(409);
    expect(await captures(tx.id)).toEqual(keys);
  });

  it("a capture on a cancelled transaction's link stores nothing", async () => {
    const other = await createTransaction(stack.gatewayUrl, acct, 'Grace Hopper', stack.env.TRANSACTION_ADDR);
    const cancel = await api('POST', `/api/transactions/${other.id}/cancel`, { headers: { 'x-api-key': acct.apiKey } });
    expect(cancel.status).toBeLessThan(300);
    expect((await capture(other.token, 'c'.repeat(64), video(webm), frame())).status).toBe(404);
    expect(await captures(other.id)).toEqual([]);
  });
});
