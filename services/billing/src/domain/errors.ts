import { quotaExhausted, unauthenticated } from '@signet/kit';

export const signatureQuotaExhausted = () =>
  quotaExhausted('monthly signature quota and signature credits are exhausted; upgrade the plan or buy credits');

/** One answer for every verification failure, so a caller learns nothing about which check failed. */
export const badWebhookSignature = () => unauthenticated('webhook signature verification failed');
