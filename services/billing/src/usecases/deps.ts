import type { Logger } from '@signet/kit';
import type { ProductCatalog } from '../domain/catalog.js';
import type { WebhookVerifier } from '../domain/signature.js';
import type { BillingMetrics } from '../metrics.js';
import type { AccountRepository } from '../store/account.repository.js';
import type { ConsumptionRepository } from '../store/consumption.repository.js';
import type { DeliveryRepository } from '../store/delivery.repository.js';
import type { UserDirectory } from '../store/user-directory.repository.js';
import type { AccountChanger } from './change-account.js';

/**
 * Everything a billing use case may be handed. Each use case names the part it needs (`Pick`, and
 * of a repository only the methods it calls), so a unit test passes in-memory fakes of just those.
 */
export type BillingDeps = {
  accounts: AccountRepository;
  consumptions: ConsumptionRepository;
  deliveries: DeliveryRepository;
  users: UserDirectory;
  /** The one write path of account state (change-account.ts). */
  change: AccountChanger;
  /** Standard Webhooks verification with WEBHOOK_SECRET (domain/signature.ts). */
  verifyWebhook: WebhookVerifier;
  /** PRODUCT_CATALOG. */
  catalog: ProductCatalog;
  /** GRACE_PERIOD_DAYS in milliseconds. */
  graceMs: number;
  metrics: BillingMetrics;
  logger: Pick<Logger, 'info' | 'warn'>;
  /** Called after an account version with an outbox event may have been written: wakes the relay. */
  onAccountChanged: () => void;
};
