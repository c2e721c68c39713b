import { summarize, type CeremonySummary } from '../domain/summary.js';
import { resolveSession, type ResolveDeps } from './resolve-session.js';

/** The ceremony as the signing page shows it: signer, document, step, attempts and draws left. */
export async function getSummary(deps: ResolveDeps, token: string): Promise<CeremonySummary> {
  const { ctx, session } = await resolveSession(deps, token);
  return summarize(ctx, session);
}
