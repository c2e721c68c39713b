import { describe, expect, it } from 'vitest';
import { ledgerV1 } from '@signet/proto';
import { ledgerHandlers } from './server.js';
import type { LedgerDeps } from './usecases/deps.js';

describe('ledgerHandlers', () => {
  it('has exactly one handler for every RPC of LedgerService', () => {
    // Building the handlers touches no dependency, so none is needed here.
    const handlers = ledgerHandlers({} as LedgerDeps);
    const rpcs = Object.keys(ledgerV1.LedgerServiceService).sort();
    expect(Object.keys(handlers).sort()).toEqual(rpcs);
  });
});
