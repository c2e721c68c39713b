import { startConsumer, type createMailer, type KeyedLock, type Logger, type Metrics, type OutboxRelay } from '@signet/kit';
import { events } from '@signet/proto';
import type { TransactionConfig } from './config.js';
import { ACCOUNT_BRANDING_DURABLE, accountBrandingConsumer } from './events/account-branding.consumer.js';
import { ACCOUNT_SETTINGS_DURABLE, accountSettingsConsumer } from './events/account-settings.consumer.js';
import { COMPLETION_MAIL_DURABLE, completionMailConsumer } from './events/completion-mail.consumer.js';
import {
  LINK_MAIL_ACK_WAIT_MS,
  LINK_MAIL_CONCURRENCY,
  LINK_MAIL_DURABLE,
  linkMailConsumer,
} from './events/link-mail.consumer.js';
import { MEDIA_ERASED_DURABLE, mediaErasedConsumer } from './events/media-erased.consumer.js';
import { SENDER_MAIL_DURABLE, SENDER_MAIL_EVENTS, senderMailConsumer } from './events/sender-mail.consumer.js';
import { STATE_DURABLE, STATE_EVENTS, stateConsumer } from './events/state.consumer.js';
import type { TransactionMetrics } from './metrics.js';
import type { AccountBrandingRepository } from './store/account-branding.repository.js';
import type { CompletionMailRepository } from './store/completion-mail.repository.js';
import type { TransactionRepository } from './store/transaction.repository.js';

type Bus = Parameters<typeof startConsumer>[0];

export type ConsumerDeps = {
  cfg: TransactionConfig;
  repo: TransactionRepository;
  tm: TransactionMetrics;
  lock: KeyedLock<number>;
  outbox: OutboxRelay;
  clock: () => Date;
  retention: { defaultDays: number; dayMs: number };
  mailer: ReturnType<typeof createMailer>;
  brands: AccountBrandingRepository;
  completionMails: CompletionMailRepository;
  metrics: Metrics;
  logger: Logger;
  ackWaitMs?: number;
};

/**
 * The transaction service's event consumers: the state machine (ceremony, biometrics and ledger events),
 * the signing-link, completion and sender mails, capture-media erasures, and the organisation's settings
 * and branding. Stopped in reverse order of their start.
 */
export async function startEventConsumers(bus: Bus, d: ConsumerDeps): Promise<{ stop: () => Promise<void> }> {
  const { repo, tm, lock, outbox, clock, retention, mailer, logger, cfg, brands } = d;
  const opts = { metrics: d.metrics, logger };
  const mailWait = d.ackWaitMs ?? LINK_MAIL_ACK_WAIT_MS;
  const started = [
    await startConsumer(
      bus,
      { durable: STATE_DURABLE, events: STATE_EVENTS, ackWaitMs: d.ackWaitMs },
      stateConsumer({ repo, tm, lock, outbox, clock, retention }),
      opts,
    ),
    await startConsumer(
      bus,
      { durable: LINK_MAIL_DURABLE, events: [events.linksRequested], ackWaitMs: mailWait, concurrency: LINK_MAIL_CONCURRENCY },
      linkMailConsumer({ repo, mailer, tm, logger, cfg, brands }),
      opts,
    ),
    // The signed PDF is sealed: every signer and the sender get a download link (issue 17).
    await startConsumer(
      bus,
      { durable: COMPLETION_MAIL_DURABLE, events: [events.pdfSealed], ackWaitMs: mailWait },
      completionMailConsumer({ repo, sent: d.completionMails, mailer, tm, logger, cfg, clock, brands }),
      opts,
    ),
    await startConsumer(
      bus,
      { durable: MEDIA_ERASED_DURABLE, events: [events.mediaErased], ackWaitMs: d.ackWaitMs },
      mediaErasedConsumer({ repo, lock, clock }),
      opts,
    ),
    await startConsumer(
      bus,
      { durable: ACCOUNT_SETTINGS_DURABLE, events: [events.settingsChanged], ackWaitMs: d.ackWaitMs },
      accountSettingsConsumer({ repo }),
      opts,
    ),
    // Organisations' branding for the mails to their signers (identity.branding.changed, issue 34 item 4).
    await startConsumer(
      bus,
      { durable: ACCOUNT_BRANDING_DURABLE, events: [events.brandingChanged], ackWaitMs: d.ackWaitMs },
      accountBrandingConsumer({ brands }),
      opts,
    ),
    await startConsumer(
      bus,
      { durable: SENDER_MAIL_DURABLE, events: SENDER_MAIL_EVENTS, ackWaitMs: mailWait },
      senderMailConsumer({ repo, mailer, tm, logger, cfg }),
      opts,
    ),
  ];
  return {
    async stop() {
      for (const c of started.reverse()) await c.stop();
    },
  };
}
