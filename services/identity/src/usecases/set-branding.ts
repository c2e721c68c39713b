import { invalid, outboxEvent, type Logger } from '@signet/kit';
import { events, identityBrandingV1 } from '@signet/proto';
import { NO_CLIENT, type AuditActor, type ClientInfo } from '../domain/audit.js';
import { colorOf, displayNameOf, logoOf, replyToOf } from '../domain/branding.js';
import { auditRecordedEvent } from '../events/audit-recorded.publisher.js';
import type { UserRepository } from '../store/user.repository.js';
import type { BrandingRecord, BrandingRepository } from '../store/branding.repository.js';
import { brandingView } from './get-branding.js';

export type SetBrandingDeps = {
  branding: Pick<BrandingRepository, 'get' | 'set'>;
  /** signet_identity_branding_changes_total{part}. */
  changes: { inc(labels: { part: string }): void };
  logger: Logger;
  now: () => number;
  /** Publishes the outbox at once (the relay's kick); the sweep catches it otherwise. */
  kick?: () => void;
  /** The acting member's e-mail for the audit entry (absent: the entry names the id only). */
  users?: Pick<UserRepository, 'byId'>;
};

const PARTS = ['display_name', 'color', 'reply_to', 'logo'] as const;

/**
 * Replaces an organisation's branding (issue 34 item 4). Every part is checked before anything is
 * written (domain/branding.ts: a bad one is a 400 naming it, nothing changed). A change is written
 * with its `identity.branding.changed` event (the transaction service applies it to the signers'
 * mails) and its audit entry (branding.changed: the parts changed, their new values, the logo's hash)
 * in one update, counted per part and logged without the logo's bytes.
 */
export async function setBranding(
  deps: SetBrandingDeps,
  req: identityBrandingV1.SetBrandingRequest,
  client: ClientInfo = NO_CLIENT,
) {
  if (!req.orgId) throw invalid('org_id is required');
  const next = {
    display_name: displayNameOf(req.displayName),
    color: colorOf(req.color),
    reply_to: replyToOf(req.replyTo),
  };
  const logo = req.logoChange === identityBrandingV1.LogoChange.LOGO_CHANGE_SET ? logoOf(req.logo) : undefined;
  const before = await deps.branding.get(req.orgId);
  const keep = req.logoChange === identityBrandingV1.LogoChange.LOGO_CHANGE_UNSPECIFIED;
  const record: Omit<BrandingRecord, '_id'> = {
    ...next,
    logo_sha256: logo?.sha256 ?? (keep ? (before?.logo_sha256 ?? '') : ''),
    logo_width: logo?.width ?? (keep ? (before?.logo_width ?? 0) : 0),
    logo_height: logo?.height ?? (keep ? (before?.logo_height ?? 0) : 0),
    updated_at: new Date(deps.now()),
    updated_by: req.actorId,
    ...(logo ? { logo_png: logo.png } : keep ? {} : { logo_png: null }),
  };
  const changed = PARTS.filter((p) =>
    p === 'logo' ? (before?.logo_sha256 ?? '') !== record.logo_sha256 : (before?.[p] ?? '') !== record[p],
  );
  if (changed.length === 0) return brandingView(before);
  const view = brandingView(record);
  const event = outboxEvent(events.brandingChanged, (meta) => ({
    eventId: meta.event_id,
    occurredAt: meta.occurred_at,
    orgId: req.orgId,
    actorId: req.actorId,
    branding: view,
    changed: [...changed],
  }));
  const details: Record<string, string> = { changed: changed.join(' ') };
  for (const part of changed)
    details[part === 'logo' ? 'logo_sha256' : part] = part === 'logo' ? record.logo_sha256 : record[part];
  const audit = auditRecordedEvent({
    action: 'branding.changed',
    actor: await actorOf(deps, req),
    client,
    target: req.orgId,
    details,
  });
  await deps.branding.set(req.orgId, record, [event, audit]);
  deps.kick?.();
  for (const part of changed) deps.changes.inc({ part });
  deps.logger.info({ orgId: req.orgId, actorId: req.actorId, setting: 'branding', changed }, 'account setting changed');
  return view;
}

async function actorOf(deps: SetBrandingDeps, req: identityBrandingV1.SetBrandingRequest): Promise<AuditActor> {
  const u = req.actorId && deps.users ? await deps.users.byId(req.actorId) : null;
  const inOrg = u && (u.org_id || u._id) === req.orgId;
  return { _id: req.actorId, email: inOrg ? u.email : '', org_id: req.orgId };
}
