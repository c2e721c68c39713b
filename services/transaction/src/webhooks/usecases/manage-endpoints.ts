import type { AddressPolicy } from '../domain/address-policy.js';
import { hostOf, parseEndpointUrl } from '../domain/endpoint-url.js';
import { endpointInvalid, endpointNotFound } from '../domain/errors.js';
import { isWebhookEventType, newEndpointId, newEndpointSecret, WEBHOOK_EVENT_TYPES } from '../domain/webhook-event.js';
import { DEFAULT_OVERLAP_SECONDS, MAX_OVERLAP_SECONDS, type SecretSeal } from '../domain/secret-seal.js';
import { resolveAllowed, type Resolver } from '../delivery/resolve.js';
import type { EndpointRecord, WebhookRepository } from '../store/webhook.repository.js';

export type EndpointDeps = {
  store: WebhookRepository;
  policy: AddressPolicy;
  resolver?: Resolver;
  clock: () => Date;
  /** Seals the signing secrets at rest (WEBHOOK_ENDPOINT_KEY). */
  seal: SecretSeal;
};

/** An endpoint as answered: with its secret only from create and roll. */
export type EndpointView = Omit<EndpointRecord, 'secret' | 'previous_secret' | 'owner_id' | 'owner_email'> & {
  secret?: string;
};

const MAX_DESCRIPTION = 500;
const MAX_ENDPOINTS = 20;

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
  input: { ownerId: string; ownerEmail: string; url: string; eventTypes: string[]; description: string },
): Promise<EndpointView> {
  const eventTypes = checkedTypes(input.eventTypes);
  const description = checkedDescription(input.description);
  const url = await checkedUrl(deps, input.url);
  if ((await deps.store.listEndpoints(input.ownerId)).length >= MAX_ENDPOINTS)
    throw endpointInvalid('url', `an account may have at most ${MAX_ENDPOINTS} webhook endpoints`);
  const now = deps.clock();
  const id = newEndpointId();
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
    created_at: now,
    updated_at: now,
  };
  await deps.store.insertEndpoint(rec);
  return view(rec, secret);
}

export async function listEndpoints(deps: EndpointDeps, ownerId: string): Promise<EndpointView[]> {
  return (await deps.store.listEndpoints(ownerId)).map((r) => view(r));
}

export async function getEndpoint(deps: EndpointDeps, ownerId: string, id: string): Promise<EndpointView> {
  const r = await deps.store.findEndpoint(ownerId, id);
  if (!r) throw endpointNotFound();
  return view(r);
}

export async function updateEndpoint(
  deps: EndpointDeps,
  input: { ownerId: string; id: string; url?: string; eventTypes?: string[]; description?: string; enabled?: boolean },
): Promise<EndpointView> {
  if (!(await deps.store.findEndpoint(input.ownerId, input.id))) throw endpointNotFound();
  const set: Partial<EndpointRecord> = { updated_at: deps.clock() };
  if (input.eventTypes) set.event_types = checkedTypes(input.eventTypes);
  if (input.description !== undefined) set.description = checkedDescription(input.description);
  if (input.url !== undefined) set.url = await checkedUrl(deps, input.url);
  if (input.enabled !== undefined) {
    set.enabled = input.enabled;
    set.disabled_reason = input.enabled ? '' : 'owner';
  }
  const r = await deps.store.updateEndpoint(input.ownerId, input.id, set);
  if (!r) throw endpointNotFound();
  return view(r);
}

export async function deleteEndpoint(deps: EndpointDeps, ownerId: string, id: string): Promise<void> {
  if (!(await deps.store.deleteEndpoint(ownerId, id))) throw endpointNotFound();
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
): Promise<EndpointView> {
  if (!Number.isInteger(overlapSeconds) || overlapSeconds < 0 || overlapSeconds > MAX_OVERLAP_SECONDS)
    throw endpointInvalid('overlap_seconds', `must be a whole number of seconds from 0 to ${MAX_OVERLAP_SECONDS}`);
  // Conditional on the secret read: of two rolls at once, the second reads again and overlaps the first's.
  for (let tries = 0; tries < 3; tries++) {
    const ep = await deps.store.endpointWithSecret(ownerId, id);
    if (!ep) throw endpointNotFound();
    const now = deps.clock();
    const secret = newEndpointSecret();
    const previous = deps.seal.seal(deps.seal.open(ep.secret, id), id);
    const r = await deps.store.rollEndpointSecret(ownerId, id, ep.secret, {
      secret: deps.seal.seal(secret, id),
      previous_secret: overlapSeconds ? previous : null,
      previous_secret_until: overlapSeconds ? new Date(now.getTime() + overlapSeconds * 1000) : null,
      updated_at: now,
    });
    if (r) return view(r, secret);
  }
  throw endpointInvalid('id', 'the secret is being rolled by another request; try again');
}
