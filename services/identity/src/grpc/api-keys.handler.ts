import type { identityV1 } from '@signet/proto';
import { createApiKey } from '../usecases/create-api-key.js';
import type { IdentityDeps } from '../usecases/deps.js';
import { listApiKeys } from '../usecases/list-api-keys.js';
import { revokeApiKey } from '../usecases/revoke-api-key.js';
import { auditContextOf } from './audit-context.js';
import { apiKeyOut } from './mappers.js';

type Call = Parameters<typeof auditContextOf>[0];

/** API keys: CreateApiKey, ListApiKeys, RevokeApiKey. */
export function apiKeyHandlers(deps: IdentityDeps) {
  return {
    async createApiKey(req: identityV1.CreateApiKeyRequest, call?: Call): Promise<identityV1.CreatedApiKey> {
      const { key, secret } = await createApiKey(deps, {
        userId: req.userId,
        name: req.name,
        mode: req.mode,
        scopes: req.scopes,
        expiresAt: req.expiresAt,
        client: auditContextOf(call).client,
      });
      return { key: apiKeyOut(key), secret };
    },

    async listApiKeys(req: identityV1.ListApiKeysRequest): Promise<identityV1.ListApiKeysResponse> {
      return { keys: (await listApiKeys(deps, req.userId)).map(apiKeyOut) };
    },

    async revokeApiKey(req: identityV1.RevokeApiKeyRequest, call?: Call): Promise<identityV1.RevokeApiKeyResponse> {
      await revokeApiKey(deps, { userId: req.userId, id: req.id, client: auditContextOf(call).client });
      return {};
    },
  };
}
