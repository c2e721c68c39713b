import { status } from '@grpc/grpc-js';
import { DomainError, RpcError, type ServiceClient } from '@signet/kit';
import type { transactionV1 } from '@signet/proto';
import type { SigningContext } from '../domain/signer.js';
import type { SigningTokens } from '../usecases/deps.js';

/**
 * ResolveSigningToken over gRPC: NOT_FOUND and INVALID_ARGUMENT become null (an ended link's NOT_FOUND
 * is passed on with its detail), anything else is thrown.
 */
export function signingTokensOver(client: ServiceClient<transactionV1.TransactionServiceClient>): SigningTokens {
  return {
    async resolve(token: string): Promise<SigningContext | null> {
      let ctx: transactionV1.SigningContext;
      try {
        ctx = await client.resolveSigningToken({ token });
      } catch (err) {
        // A link that ended with its transaction (declined, expired) says so to the signer.
        if (err instanceof RpcError && err.code === status.NOT_FOUND && err.reason === 'SIGNING_LINK_ENDED')
          throw new DomainError('not_found', err.details, err.reason);
        if (err instanceof RpcError && (err.code === status.NOT_FOUND || err.code === status.INVALID_ARGUMENT)) return null;
        throw err;
      }
      return {
        transactionId: Number(ctx.transactionId),
        signerIndex: ctx.signerIndex,
        signerName: ctx.signerName,
        signerEmail: ctx.signerEmail,
        signerState: ctx.signerState,
        documentName: ctx.documentName,
        documentSha256: ctx.documentSha256,
        referenceKey: ctx.referenceKey,
        attestationType: ctx.attestationType,
        issuerName: ctx.issuerName,
        verificationMode: ctx.verificationMode,
        attemptsLeft: ctx.attemptsLeft,
        retentionDays: ctx.retentionDays,
        webauthnRequired: ctx.webauthnRequired,
        requiredAssurance: ctx.requiredAssurance,
        fieldsPending: ctx.fieldsPending,
      };
    },
  };
}
