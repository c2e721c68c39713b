import type { AddressPolicy } from '../domain/address-policy.js';
import { hostOf, parseEndpointUrl } from '../domain/endpoint-url.js';
import { endpointInvalid, endpointLimit, endpointNotFound } from '../domain/errors.js';
import { isWebhookEventType, newEndpointId, newEndpointSecret, WEBHOOK_EVENT_TYPES } from '../domain/webhook-event.js';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS, type SecretSeal } from '../domain/secret-seal.js';
import { resolveAllowed, type Resolver } from '../delivery/resolve.js';
import type { EndpointRecord, WebhookRepository } from '../store/webhook.repository.js';
import { modeOf, type EndpointMode, type ModeScope } from '../domain/mode.js';

export type EndpointDeps = {
  store: WebhookRepository;
  policy: AddressPolicy;
  resolver?: Resolver;
  clock: () => Date;
  /** Seals the signing secrets at rest (WEBHOOK_ENDPOINT_KEY). */
  seal: SecretSeal;
  /** Endpoints an owner may have per mode (WEBHOOK_MAX_ENDPOINTS, default 20). */
  maxEndpoints?: number;
};

/** An endpoint as answered: with its secret only from create and roll. */
export type EndpointView = Omit<EndpointRecord, 'secret' | 'previous_secret' | 'owner_id' | 'owner_email' | 'slot' | 'mode'> & {
  mode: EndpointMode;
  secret?: string;
};

const MAX_DESCRIPTION = 500;
export const MAX_ENDPOINTS = 20;

const view = (r: Omit<EndpointRecord, 'secret' | 'previous_secret'>, secret?: string): EndpointView => ({
  _id: r._id,
  url: r.url,
  event_types: r.event_types,
  description: r.description,
  enabled: r.enabled,
  disabled_reason: r.disabled_reason,
  created_at: r.created_at,
  updated_at: r.updated_at,
  previous_secret_until: r.previous_secret_until ?? null,
  mode: modeOf(r),
  ...(secret ? { secret } : {}),
});

/** A URL the policy lets webhooks reach now: http(s), and every address its host resolves to allowed. */
async function checkedUrl(deps: EndpointDeps, raw: string): Promise<string> {
  const url = parseEndpointUrl(raw);
  const r = await resolveAllowed(hostOf(url), deps.policy, deps.resolver);
  if ('refused' in r) throw endpointInvalid('url', r.refused);
  return url.toString();
}

function checkedTypes(types: string[]): string[] {
  if (!types.length) throw endpointInvalid('event_types', 'name at least one event type');
  const bad = types.find((t) => !isWebhookEventType(t));
  if (bad !== undefined)
    throw endpointInvalid('event_types', `unknown event type "${bad}"; one of ${WEBHOOK_EVENT_TYPES.join(', ')}`);
  return [...new Set(types)];
}

function checkedDescription(d: string): string {
  if (d.length > MAX_DESCRIPTION) throw endpointInvalid('description', `must be at most ${MAX_DESCRIPTION} characters`);
  return d;
}

export async function createEndpoint(
  deps: EndpointDeps,
  input: { ownerId: string; ownerEmail: string; url: string; eventTypes: string[]; description: string; mode?: EndpointMode },
): Promise<EndpointView> {
  const eventTypes = checkedTypes(input.eventTypes);
  const description = checkedDescription(input.description);
  const url = await checkedUrl(deps, input.url);
  const mode = input.mode ?? 'live';
  const cap = deps.maxEndpoints ?? MAX_ENDPOINTS;
  const full = () => endpointLimit(`an account may have at most ${cap} ${mode} webhook endpoints; delete one first`);
  // The count covers endpoints stored before places existed; the place makes the cap exact under concurrency.
  if ((await deps.store.countEndpoints(input.ownerId, mode)) >= cap) throw full();
  const now = deps.clock();
  const id = newEndpointId();
  const slot = await deps.store.claimSlot(input.ownerId, mode, id, cap, now);
  if (slot === null) throw full();
  const secret = newEndpointSecret();
  const rec: EndpointRecord = {
    _id: id,
    owner_id: input.ownerId,
    owner_email: input.ownerEmail,
    url,
    event_types: eventTypes,
    description,
    secret: deps.seal.seal(secret, id),
    enabled: true,
    disabled_reason: '',
    mode,
    slot,
    created_at: now,
    updated_at: now,
  };
  try {
    await deps.store.insertEndpoint(rec);
  } catch (err) {
    await deps.store.releaseSlot(input.ownerId, mode, slot, id);
    throw err;
  }
  return view(rec, secret);
}

export async function listEndpoints(deps: EndpointDeps, ownerId: string, scope: ModeScope): Promise<EndpointView[]> {
  return (await deps.store.listEndpoints(ownerId, scope)).map((r) => view(r));
}

export async function getEndpoint(
  deps: EndpointDeps,
  ownerId: string,
  id: string,
  scope: ModeScope = 'live',
): Promise<EndpointView> {
  const r = await deps.store.findEndpoint(ownerId, id, scope);
  if (!r) throw endpointNotFound();
  return view(r);
}

export async function updateEndpoint(
  deps: EndpointDeps,
  input: {
    ownerId: string;
    id: string;
    scope: ModeScope;
    url?: string;
    eventTypes?: string[];
    description?: string;
    enabled?: boolean;
  },
): Promise<EndpointView> {
  if (!(await deps.store.findEndpoint(input.ownerId, input.id, input.scope))) throw endpointNotFound();
  const set: Partial<EndpointRecord> = { updated_at: deps.clock() };
  if (input.eventTypes) set.event_types = checkedTypes(input.eventTypes);
  if (input.description !== undefined) set.description = checkedDescription(input.description);
  if (input.url !== undefined) set.url = await checkedUrl(deps, input.url);
  if (input.enabled !== undefined) {
    set.enabled = input.enabled;
    set.disabled_reason = input.enabled ? '' : 'owner';
    // Enabled again: a new streak, so it is not disabled at its next failure for the old one.
    if (input.enabled) set.failing_since = null;
  }
  const r = await deps.store.updateEndpoint(input.ownerId, input.id, input.scope, set);
  if (!r) throw endpointNotFound();
  return view(r);
}

export async function deleteEndpoint(deps: EndpointDeps, ownerId: string, id: string, scope: ModeScope): Promise<void> {
  if (!(await deps.store.deleteEndpoint(ownerId, id, scope))) throw endpointNotFound();
}

/**
 * A new secret, shown once; deliveries are signed with it from now on. For `overlapSeconds` (default a
 * day; 0: none) they carry the old one's signature too, so a receiver can switch without losing any.
 * A roll during another's overlap ends that one: only the secret being replaced overlaps.
 */
export async function rollSecret(
  deps: EndpointDeps,
  ownerId: string,
  id: string,
  overlapSeconds = DEFAULT_OVERLAP_SECONDS,
  scope: ModeScope = 'live',
): Promise<EndpointView> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_OVERLAP_SECONDS)
    throw endpointInvalid('overlap_seconds', `must be a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS}`);
  // Conditional on the secret read: of two rolls at once, the second reads again and overlaps the first's.
  for (let tries = 0; tries < 3; tries++) {
    const ep = await deps.store.endpointWithSecret(ownerId, id, scope);
    if (!ep) throw endpointNotFound();
    const now = deps.clock();
    const secret = newEndpointSecret();
    const previous = deps.seal.seal(deps.seal.open(ep.secret, id), id);
    const r = await deps.store.rollEndpointSecret(ownerId, id, scope, ep.secret, {
      secret: deps.seal.seal(secret, id),
      previous_secret: overlapSeconds ? previous : null,
      previous_secret_until: overlapSeconds ? new Date(now.getTime() + overlapSeconds * 1000) : null,
      updated_at: now,
    });
    if (r) return view(r, secret);
  }
  throw endpointInvalid('id', 'the secret is being rolled by another request; try again');
}
