import { events } from '@signet/proto';
import type { DeliveredEvent } from '@signet/kit';
import { judgeCapture, type JudgeDeps } from '../usecases/judge-capture.js';

/**
 * `ceremony.capture.submitted`: maps the event to the capture to judge and calls the use case
 * (usecases/judge-capture.ts). A throw leaves the event to be delivered again.
 */
export function captureConsumer(deps: JudgeDeps) {
  return async (delivered: DeliveredEvent): Promise<void> => {
    const ev = events.captureSubmitted.message.decode(delivered.data);
    const live = ev.live?.assurance === 'live';
    await judgeCapture(
      deps,
      {
        captureId: ev.captureId,
        transactionId: Number(ev.transactionId),
        signerIndex: ev.signerIndex,
        attempt: ev.attempt,
        videoKey: ev.videoKey,
        frameKey: ev.frameKey,
        referenceKey: ev.referenceKey || undefined,
        challenge: {
          actions: ev.challenge?.actions ?? [],
          readSeconds: ev.challenge?.readSeconds || undefined,
          words: ev.challenge?.words ?? [],
          timeline: ev.challenge?.timeline?.segmentMs ? ev.challenge.timeline : undefined,
        },
        // The page's shown times are trusted for the windows only when the ceremony found them consistent.
        shownMs: live ? ev.live!.shownMs : undefined,
        assurance: live ? 'live' : 'recorded',
      },
      delivered.deliveryCount,
    );
  };
}
