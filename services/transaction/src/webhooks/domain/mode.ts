import { endpointInvalid } from './errors.js';

/**
 * Mode is part of ownership (issue 31): a live endpoint receives only live transactions' events, a
 * test endpoint only test ones; a test API key sees only test endpoints, a live key only live ones, a
 * dashboard session both. Endpoints stored before modes existed have none and are live.
 */
export type EndpointMode = 'live' | 'test';
/** What a caller may see: one mode, or both (a dashboard session). */
export type ModeScope = EndpointMode | 'any';

/** The mode of a stored endpoint: none stored is live. */
export const modeOf = (r: { mode?: string | null }): EndpointMode => (r.mode === 'test' ? 'test' : 'live');

/** The mode of a transaction, as its endpoints must have it. */
export const modeOfTransaction = (tx: { test?: boolean | null }): EndpointMode => (tx.test === true ? 'test' : 'live');

/** A caller's scope off the wire: empty is live (the safe default: what every endpoint was before modes). */
export function parseScope(raw: string | undefined): ModeScope {
  if (!raw || raw === 'live') return 'live';
  if (raw === 'test' || raw === 'any') return raw;
  throw endpointInvalid('mode', 'must be live, test or any');
}

/** The mode of a new endpoint off the wire: empty is live. */
export function parseMode(raw: string | undefined): EndpointMode {
  if (!raw || raw === 'live') return 'live';
  if (raw === 'test') return 'test';
  throw endpointInvalid('mode', 'must be live or test');
}

/** The store filter of a scope: live also matches endpoints stored without a mode. */
export function modeFilter(scope: ModeScope): Record<string, unknown> {
  if (scope === 'any') return {};
  return scope === 'test' ? { mode: 'test' } : { mode: { $ne: 'test' } };
}
