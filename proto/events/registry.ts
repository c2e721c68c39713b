/**
 * The event contract registry: every NATS subject of the SIGNET stream, declared once, with its
 * protobuf message, the service that produces it and the durable consumers that read it. The kit
 * publishes and subscribes only through these entries (`outboxEvent(entry, ...)`,
 * `publishEvent(bus, entry, ...)`, `startConsumer(bus, { events: [entry], durable })`), so a subject
 * string appears nowhere else. Names follow `signet.<service>.<noun>.<past-tense>`; the noun is left
 * out only when it is the producing service's own aggregate (`signet.transaction.created`).
 * See docs/events.md.
 */
import { eventsV1, identityBrandingV1 } from '../src/index.js';

export const SERVICES = ['gateway', 'identity', 'transaction', 'ceremony', 'biometrics', 'ledger', 'billing'] as const;
export type ServiceName = (typeof SERVICES)[number];

/** What the kit needs of a message type: the generated `eventsV1.X` objects satisfy it. */
export type EventCodec<T> = {
  encode(message: T): { finish(): Uint8Array };
  decode(input: Uint8Array): T;
};

/** One durable consumer of an event: the service that runs it and its JetStream durable name. */
export type EventConsumer = { readonly service: ServiceName; readonly durable: string };

export type EventEntry<T = any> = {
  readonly subject: string;
  readonly message: EventCodec<T>;
  readonly producer: ServiceName;
  readonly consumers: readonly EventConsumer[];
};

/** The message type of an entry: what a publisher must build and a consumer decodes. */
export type EventPayload<E> = E extends EventEntry<infer T> ? T : never;

const entry = <T>(e: EventEntry<T>): EventEntry<T> => e;

/** The one durable of the transaction service that moves its state machine on other services' facts. */
const transactionState: EventConsumer = { service: 'transaction', durable: 'transaction-state' };
/** The transaction service's durable that turns events into outgoing customer webhooks (src/webhooks). */
const transactionWebhooks: EventConsumer = { service: 'transaction', durable: 'transaction-webhooks' };
/** The transaction service's durable that mails the sender when a signer finishes, fails or declines, or it expires. */
const transactionSenderMail: EventConsumer = { service: 'transaction', durable: 'transaction-sender-mail' };

export const events = {
  userCreated: entry({
    subject: 'signet.identity.user.created',
    message: eventsV1.UserCreated,
    producer: 'identity',
    consumers: [{ service: 'billing', durable: 'billing-identity-user-created' }],
  }),
  accountChanged: entry({
    subject: 'signet.billing.account.changed',
    message: eventsV1.AccountChanged,
    producer: 'billing',
    consumers: [],
  }),
  consentAccepted: entry({
    subject: 'signet.ceremony.consent.accepted',
    message: eventsV1.ConsentAccepted,
    producer: 'ceremony',
    consumers: [transactionState],
  }),
  captureSubmitted: entry({
    subject: 'signet.ceremony.capture.submitted',
    message: eventsV1.CaptureSubmitted,
    producer: 'ceremony',
    consumers: [{ service: 'biometrics', durable: 'biometrics-capture-submitted' }, transactionState],
  }),
  attemptForfeited: entry({
    subject: 'signet.ceremony.attempt.forfeited',
    message: eventsV1.AttemptForfeited,
    producer: 'ceremony',
    consumers: [transactionState],
  }),
  verdictIssued: entry({
    subject: 'signet.biometrics.verdict.issued',
    message: eventsV1.BiometricsVerdict,
    producer: 'biometrics',
    consumers: [{ service: 'ceremony', durable: 'ceremony-biometrics-verdict' }, transactionState],
  }),
  transactionCreated: entry({
    subject: 'signet.transaction.created',
    message: eventsV1.TransactionCreated,
    producer: 'transaction',
    consumers: [transactionWebhooks],
  }),
  transactionStatusChanged: entry({
    subject: 'signet.transaction.status.changed',
    message: eventsV1.TransactionStatusChanged,
    producer: 'transaction',
    consumers: [transactionWebhooks, transactionSenderMail],
  }),
  signerStateChanged: entry({
    subject: 'signet.transaction.signer.changed',
    message: eventsV1.SignerStateChanged,
    producer: 'transaction',
    consumers: [transactionWebhooks, transactionSenderMail],
  }),
  signerOpened: entry({
    subject: 'signet.transaction.signer.opened',
    message: eventsV1.SignerOpened,
    producer: 'transaction',
    consumers: [transactionWebhooks],
  }),
  signerDeclined: entry({
    subject: 'signet.transaction.signer.declined',
    message: eventsV1.SignerDeclined,
    producer: 'transaction',
    consumers: [transactionWebhooks],
  }),
  linksRequested: entry({
    subject: 'signet.transaction.links.requested',
    message: eventsV1.SigningLinksRequested,
    producer: 'transaction',
    consumers: [{ service: 'transaction', durable: 'transaction-link-mail' }, transactionWebhooks],
  }),
  bulkCompleted: entry({
    subject: 'signet.transaction.bulk.completed',
    message: eventsV1.BulkJobCompleted,
    producer: 'transaction',
    consumers: [transactionWebhooks],
  }),
  transactionVerified: entry({
    subject: 'signet.transaction.verified',
    message: eventsV1.TransactionVerified,
    producer: 'transaction',
    consumers: [{ service: 'ledger', durable: 'ledger-transaction-verified' }],
  }),
  certificateIssued: entry({
    subject: 'signet.ledger.certificate.issued',
    message: eventsV1.CertificateIssued,
    producer: 'ledger',
    consumers: [transactionState, transactionWebhooks],
  }),
  settingsChanged: entry({
    subject: 'signet.identity.settings.changed',
    message: eventsV1.AccountSettingsChanged,
    producer: 'identity',
    consumers: [{ service: 'transaction', durable: 'transaction-account-settings' }],
  }),
  brandingChanged: entry({
    subject: 'signet.identity.branding.changed',
    message: identityBrandingV1.BrandingChanged,
    producer: 'identity',
    consumers: [{ service: 'transaction', durable: 'transaction-account-branding' }],
  }),
  memberInvited: entry({
    subject: 'signet.identity.member.invited',
    message: eventsV1.MemberChanged,
    producer: 'identity',
    consumers: [{ service: 'identity', durable: 'identity-invitation-mail' }],
  }),
  memberJoined: entry({
    subject: 'signet.identity.member.joined',
    message: eventsV1.MemberChanged,
    producer: 'identity',
    consumers: [],
  }),
  memberRoleChanged: entry({
    subject: 'signet.identity.member.role.changed',
    message: eventsV1.MemberChanged,
    producer: 'identity',
    consumers: [],
  }),
  memberRemoved: entry({
    subject: 'signet.identity.member.removed',
    message: eventsV1.MemberChanged,
    producer: 'identity',
    consumers: [],
  }),
  auditRecorded: entry({
    subject: 'signet.identity.audit.recorded',
    message: eventsV1.AuditRecorded,
    producer: 'identity',
    consumers: [{ service: 'identity', durable: 'identity-audit' }],
  }),
  erasureRequested: entry({
    subject: 'signet.transaction.erasure.requested',
    message: eventsV1.BiometricErasureRequested,
    producer: 'transaction',
    consumers: [
      { service: 'ceremony', durable: 'ceremony-erasure-requested' },
      { service: 'identity', durable: 'identity-audit' },
    ],
  }),
  mediaErased: entry({
    subject: 'signet.ceremony.media.erased',
    message: eventsV1.CaptureMediaErased,
    producer: 'ceremony',
    consumers: [{ service: 'transaction', durable: 'transaction-media-erased' }],
  }),
  transactionDeleted: entry({
    subject: 'signet.transaction.deleted',
    message: eventsV1.TransactionDeleted,
    producer: 'transaction',
    consumers: [
      { service: 'ledger', durable: 'ledger-transaction-deleted' },
      { service: 'ceremony', durable: 'ceremony-transaction-deleted' },
      { service: 'identity', durable: 'identity-audit' },
    ],
  }),
  pdfSealed: entry({
    subject: 'signet.ledger.pdf.sealed',
    message: eventsV1.SignedPdfSealed,
    producer: 'ledger',
    consumers: [{ service: 'transaction', durable: 'transaction-completion-mail' }, transactionWebhooks],
  }),
  pdfSealFailed: entry({
    subject: 'signet.ledger.pdf.failed',
    message: eventsV1.SignedPdfFailed,
    producer: 'ledger',
    consumers: [transactionSenderMail],
  }),
} as const;

export type EventName = keyof typeof events;

/** Every entry of the registry. */
export const eventEntries: readonly EventEntry[] = Object.values(events);

/** The entries one service's durable subscribes to (what `startConsumer` filters on). */
export function eventsOf(durable: string, entries: readonly EventEntry[] = eventEntries): EventEntry[] {
  return entries.filter((e) => e.consumers.some((c) => c.durable === durable));
}

/** Past participles that do not end in -ed, accepted as the last word of a subject. */
const IRREGULAR_PAST = new Set(['sent', 'paid', 'made', 'done', 'taken', 'given', 'held', 'spent', 'written', 'built', 'set']);

/**
 * Why a registry breaks the contract rules, one line each (empty when it holds): every subject
 * `signet.<producer>[.<noun>…].<past-tense>` with lower-case words; no two entries on one subject;
 * every entry produced by a known service; a durable name used by one service only.
 */
export function registryProblems(entries: readonly EventEntry[]): string[] {
  const problems: string[] = [];
  const bySubject = new Map<string, number>();
  const durableOwner = new Map<string, ServiceName>();
  for (const e of entries) {
    bySubject.set(e.subject, (bySubject.get(e.subject) ?? 0) + 1);
    if (!(SERVICES as readonly string[]).includes(e.producer)) {
      problems.push(`${e.subject}: consumed but no known service produces it (producer "${e.producer}")`);
    }
    const words = e.subject.split('.');
    const last = words[words.length - 1] ?? '';
    if (words.length < 3 || words[0] !== 'signet' || words[1] !== e.producer || !words.every((w) => /^[a-z]+$/.test(w))) {
      problems.push(`${e.subject}: not signet.<producer>.<noun>.<past-tense> for producer ${e.producer}`);
    } else if (!(/[a-z]ed$/.test(last) || IRREGULAR_PAST.has(last))) {
      problems.push(`${e.subject}: the last word "${last}" is not past tense`);
    }
    for (const c of e.consumers) {
      const owner = durableOwner.get(c.durable);
      if (owner && owner !== c.service)
        problems.push(`${e.subject}: durable ${c.durable} is declared by ${owner} and ${c.service}`);
      durableOwner.set(c.durable, c.service);
    }
  }
  for (const [subject, n] of bySubject) if (n > 1) problems.push(`${subject}: declared by ${n} entries`);
  return problems;
}
