import { invalid } from '@signet/kit';
import { forensicLimit, tooLarge } from '../domain/errors.js';
import {
  checkInjectionSignals,
  forensicBatchSchema,
  MAX_FORENSIC_BATCH_BYTES,
  MAX_FORENSIC_BATCHES,
} from '../domain/forensic.js';
import { clientOf } from '../domain/session.js';
import type { ForensicRepository } from '../store/forensic.repository.js';
import type { SessionRepository } from '../store/session.repository.js';
import type { CeremonyDeps } from './deps.js';
import { resolveSession, type ResolveDeps } from './resolve-session.js';

export type ForensicReceipt = { batch: number; batchesLeft: number; receivedAt: Date };

/**
 * Appends one batch of the page's forensic events (known types, bounded sizes; the injection
 * signals checked field by field, domain/forensic.ts) with the server time, address and browser. A refused batch takes no batch number; the numbers run out after
 * MAX_FORENSIC_BATCHES.
 */
export async function logForensic(
  deps: ResolveDeps &
    Pick<CeremonyDeps, 'metrics' | 'now'> & {
      sessions: Pick<SessionRepository, 'ensure' | 'takeForensicBatch'>;
      forensic: Pick<ForensicRepository, 'append'>;
    },
  input: { token: string; batchJson: string; ip: string; userAgent: string },
): Promise<ForensicReceipt> {
  if (Buffer.byteLength(input.batchJson) > MAX_FORENSIC_BATCH_BYTES) {
    deps.metrics.forensic.inc({ result: 'too_large' });
    throw tooLarge('forensic batch (64 KB at most)');
  }
  let json: unknown;
  try {
    json = JSON.parse(input.batchJson);
  } catch {
    throw invalid('forensic batch is not valid JSON');
  }
  const parsed = forensicBatchSchema.safeParse(json);
  if (!parsed.success) {
    deps.metrics.forensic.inc({ result: 'invalid' });
    const issue = parsed.error.issues[0]!;
    throw invalid(`forensic batch: ${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const signals = checkInjectionSignals(parsed.data.events);
  if (!signals.ok) {
    deps.metrics.forensic.inc({ result: 'invalid' });
    throw invalid(`forensic batch: ${signals.path}: ${signals.message}`);
  }
  const r = await resolveSession(deps, input.token);
  const batch = await deps.sessions.takeForensicBatch(r.session._id, MAX_FORENSIC_BATCHES);
  if (batch === null) {
    deps.metrics.forensic.inc({ result: 'limit' });
    throw forensicLimit();
  }
  const receivedAt = new Date(deps.now());
  await deps.forensic.append({
    session_id: r.session._id,
    batch,
    received_at: receivedAt,
    ...clientOf(input.ip, input.userAgent),
    events: signals.events,
  });
  deps.metrics.forensic.inc({ result: 'ok' });
  for (const e of signals.events)
    if (e.type === 'capture_source')
      deps.metrics.captureSources.inc({ camera: e.data.virtual_label ? 'virtual_label' : 'other' });
  return { batch, batchesLeft: MAX_FORENSIC_BATCHES - batch, receivedAt };
}
