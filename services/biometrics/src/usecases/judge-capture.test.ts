import { describe, expect, it } from 'vitest';
import { createLogger, Metrics } from '@signet/kit';
import { events } from '@signet/proto';
import type { Analyzer, AnalyzerInput, AnalyzerResult } from '../domain/analyzer.js';
import { MAX_ANALYSIS_DELIVERIES, MAX_UNCHARGED_ERRORS } from '../domain/verdict.js';
import { biometricsMetrics } from '../metrics.js';
import type { AnalysisRecord } from '../store/analysis.repository.js';
import { judgeCapture, type CaptureToJudge } from './judge-capture.js';

const PASS: AnalyzerResult = {
  outcome: 'PASS',
  failedChecks: [],
  checks: { face_present: { passed: true } },
  models: ['m@1'],
  framesAnalysed: 80,
  durationMs: 2000,
  inferenceMs: 1500,
};

function setup(analyse: (input: AnalyzerInput) => Promise<AnalyzerResult>) {
  const stored: { rec: AnalysisRecord; outbox: { subject: string; payload: Uint8Array }[] }[] = [];
  const inputs: AnalyzerInput[] = [];
  const reads: string[] = [];
  const registry = new Metrics('biometrics');
  const analyzer: Analyzer = {
    models: ['m@1'],
    analyze: (input) => (inputs.push(input), analyse(input)),
    countFaces: async () => 1,
  };
  const deps = {
    analyzer,
    analyses: {
      find: async (id: string) => stored.find((s) => s.rec.capture_id === id)?.rec ?? null,
      insertOnce: async (rec: AnalysisRecord, outbox: unknown[]) => {
        if (stored.some((s) => s.rec.capture_id === rec.capture_id)) return false;
        stored.push({ rec, outbox: outbox as { subject: string; payload: Uint8Array }[] });
        return true;
      },
      technicalErrorsOf: async (tx: number, signer: number) =>
        stored.filter((s) => s.rec.transaction_id === tx && s.rec.signer_index === signer && s.rec.outcome === 'ERROR').length,
    },
    readMedia: async (bucket: 'captures' | 'references', key: string) => (reads.push(`${bucket}/${key}`), Buffer.from(key)),
    deadlineMs: 5000,
    metrics: biometricsMetrics(registry),
    logger: createLogger('biometrics', 'silent'),
  };
  const metric = async (name: string, labels: string) =>
    Number(
      (await registry.registry.metrics())
        .split('\n')
        .find((l) => l.startsWith(`${name}{`) && l.includes(labels))
        ?.split(' ')
        .at(-1) ?? 0,
    );
  return { deps, stored, inputs, reads, metric };
}

const capture = (captureId: string, over: Partial<CaptureToJudge> = {}): CaptureToJudge => ({
  captureId,
  transactionId: 7,
  signerIndex: 0,
  attempt: 1,
  videoKey: `${captureId}/video.webm`,
  frameKey: `${captureId}/frame.jpg`,
  referenceKey: '7/0/reference.jpg',
  challenge: { actions: ['blink'], words: ['apple'] },
  shownMs: [0, 1000],
  assurance: 'live',
  ...over,
});

const verdictOf = (s: { outbox: { payload: Uint8Array }[] }) => events.verdictIssued.message.decode(s.outbox[0]!.payload);

describe('judgeCapture', () => {
  it('counts a failed flash check by its reason, and not a passed one', async () => {
    const t = setup(async (input) =>
      input.video.toString().startsWith('late')
        ? { ...PASS, outcome: 'FAIL', failedChecks: ['light'], flash: { passed: false, reason: 'late' } }
        : { ...PASS, flash: { passed: true, reason: null } },
    );
    expect(await t.metric('signet_biometrics_flash_failures_total', 'reason="late"')).toBe(0);
    await judgeCapture(t.deps, capture('late1'), 1);
    await judgeCapture(t.deps, capture('ok1'), 1);
    expect(await t.metric('signet_biometrics_flash_failures_total', 'reason="late"')).toBe(1);
    expect(await t.metric('signet_biometrics_failed_checks_total', 'check="light"')).toBe(1);
    for (const reason of ['not_measurable', 'no_response', 'not_the_flashes', 'early'])
      expect(await t.metric('signet_biometrics_flash_failures_total', `reason="${reason}"`)).toBe(0);
  });

  it('reads the media, analyses with the challenge and shown times, stores the verdict with its event once', async () => {
    const t = setup(async () => PASS);
    await judgeCapture(t.deps, capture('c1'), 1);
    expect(t.reads).toEqual(['captures/c1/video.webm', 'captures/c1/frame.jpg', 'references/7/0/reference.jpg']);
    expect(t.inputs[0]).toMatchObject({ actions: ['blink'], words: ['apple'], shownMs: [0, 1000], deadlineMs: 5000 });
    expect(t.stored[0]!.rec).toMatchObject({ capture_id: 'c1', outcome: 'PASS', transaction_id: 7, frames_analysed: 80 });
    expect(verdictOf(t.stored[0]!)).toMatchObject({ captureId: 'c1', outcome: 'PASS', assurance: 'live', transactionId: 7 });
    // Redelivered after the verdict was stored: nothing analysed again.
    await judgeCapture(t.deps, capture('c1'), 2);
    expect(t.inputs).toHaveLength(1);
    expect(await t.metric('signet_biometrics_verdicts_total', 'outcome="PASS"')).toBe(1);
  });

  it(`throws on a technical failure before delivery ${MAX_ANALYSIS_DELIVERIES} (redelivered), then ends in ERROR`, async () => {
    const t = setup(async () => {
      throw new Error('analysis deadline passed at decode');
    });
    for (let d = 1; d < MAX_ANALYSIS_DELIVERIES; d++)
      await expect(judgeCapture(t.deps, capture('c1'), d)).rejects.toThrow(/deadline/);
    expect(t.stored).toEqual([]);
    await judgeCapture(t.deps, capture('c1'), MAX_ANALYSIS_DELIVERIES);
    expect(t.stored[0]!.rec).toMatchObject({ outcome: 'ERROR', failed_checks: ['analysis_error'], frames_analysed: 0 });
    expect(verdictOf(t.stored[0]!)).toMatchObject({ outcome: 'ERROR', failedChecks: ['analysis_error'] });
    expect(await t.metric('signet_biometrics_analysis_errors_total', 'final="false"')).toBe(MAX_ANALYSIS_DELIVERIES - 1);
    expect(await t.metric('signet_biometrics_analysis_errors_total', 'final="true"')).toBe(1);
    expect(await t.metric('signet_biometrics_verdicts_total', 'outcome="ERROR"')).toBe(1);
    // An ERROR is not a failed check of the signer's.
    expect(await t.metric('signet_biometrics_failed_checks_total', 'check="analysis_error"')).toBe(0);
  });

  it('a media object that cannot be read is a technical failure too', async () => {
    const t = setup(async () => PASS);
    t.deps.readMedia = async () => {
      throw Object.assign(new Error('The specified key does not exist.'), { code: 'NoSuchKey' });
    };
    await judgeCapture(t.deps, capture('c1'), MAX_ANALYSIS_DELIVERIES);
    expect(t.stored[0]!.rec.outcome).toBe('ERROR');
  });

  it(`spares a signer ${MAX_UNCHARGED_ERRORS} ERRORs; the next capture that never analyses is charged (FAIL analysis_error)`, async () => {
    const t = setup(async () => {
      throw new Error('worker exited');
    });
    for (let i = 1; i <= MAX_UNCHARGED_ERRORS; i++) await judgeCapture(t.deps, capture(`c${i}`), MAX_ANALYSIS_DELIVERIES);
    // Another signer of the same transaction is counted apart.
    await judgeCapture(t.deps, capture('other', { signerIndex: 1 }), MAX_ANALYSIS_DELIVERIES);
    await judgeCapture(t.deps, capture('last'), MAX_ANALYSIS_DELIVERIES);
    expect(t.stored.map((s) => [s.rec.capture_id, s.rec.outcome])).toEqual([
      ...Array.from({ length: MAX_UNCHARGED_ERRORS }, (_, i) => [`c${i + 1}`, 'ERROR']),
      ['other', 'ERROR'],
      ['last', 'FAIL'],
    ]);
    expect(verdictOf(t.stored.at(-1)!)).toMatchObject({ outcome: 'FAIL', failedChecks: ['analysis_error'] });
    expect(await t.metric('signet_biometrics_failed_checks_total', 'check="analysis_error"')).toBe(1);
  });

  it('a recorded capture is analysed on schedule (no shown times) and its verdict says recorded', async () => {
    const t = setup(async () => ({ ...PASS, outcome: 'FAIL', failedChecks: ['words'] }));
    await judgeCapture(t.deps, capture('c1', { assurance: 'recorded', shownMs: undefined, referenceKey: undefined }), 1);
    expect(t.reads).toHaveLength(2);
    expect(t.inputs[0]!.shownMs).toBeUndefined();
    expect(verdictOf(t.stored[0]!)).toMatchObject({ outcome: 'FAIL', failedChecks: ['words'], assurance: 'recorded' });
  });
});
