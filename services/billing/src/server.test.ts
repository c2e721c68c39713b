import { describe, expect, it } from 'vitest';
import { billingV1 } from '@signet/proto';
import { billingHandlers } from './server.js';
import type { BillingDeps } from './usecases/deps.js';

describe('billingHandlers', () => {
  it('has exactly one handler for every RPC of BillingService', () => {
    // Building the handlers touches no dependency, so none is needed here.
    const handlers = billingHandlers({} as BillingDeps);
    const rpcs = Object.keys(billingV1.BillingServiceService).sort();
    expect(Object.keys(handlers).sort()).toEqual(rpcs);
  });
});
