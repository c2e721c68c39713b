import { status } from '@grpc/grpc-js';
import { Router } from 'express';
import { z } from 'zod';
import type { ledgerV1 } from '@signet/proto';
import { RpcError } from '@signet/kit';
import type { GatewayContext, RouteModule } from '../../context.js';
import { defineRoute, errorResponses, mountRoutes } from '../../route.js';

const logName = z.enum(['live', 'test']);

const keySchema = z.object({
  role: z.enum(['log', 'witness']).meta({
    description:
      'log: signs the checkpoints and the ledger seals; witness: cosigns the log’s checkpoints (c2sp.org/tlog-cosignature)',
  }),
  log: logName.meta({ description: 'The log the key signs or cosigns for: test is the test-mode log' }),
  name: z
    .string()
    .meta({ description: 'The key name: the log’s origin, or the witness’s name as its cosignature lines carry it' }),
  key_id: z.string().meta({ description: 'The 4-byte key id, hex, as in the signature lines' }),
  verifier_key: z.string().meta({
    description:
      'C2SP signed-note verifier key <name>+<key id>+<base64(type ‖ Ed25519 key)>: type 0x01 for a log key (signet-verify --key), 0x04 for a witness key (signet-verify --witness)',
    example: 'signet.example/log+0a1b2c3d+AQ…',
  }),
  current: z.boolean().meta({
    description:
      'A log key the log signs with now (false: retired, still verifies what it signed in its period); witnesses: true',
  }),
  not_before: z.string().nullable().meta({ description: 'Log keys: since when the key signs (RFC 3339); null: open' }),
  not_after: z
    .string()
    .nullable()
    .meta({ description: 'Log keys: when the key stopped signing (RFC 3339); null: still signing' }),
});

const keysSchema = z
  .object({
    logs: z.array(
      z.object({
        log: logName,
        origin: z.string().meta({ description: 'The checkpoint origin (first line of every checkpoint of this log)' }),
        witness_quorum: z
          .int()
          .meta({ description: 'How many of the listed witnesses cosign a checkpoint before it is served; 0: witnessing off' }),
      }),
    ),
    keys: z.array(keySchema),
  })
  .meta({ id: 'LedgerKeys' });

type Key = z.infer<typeof keySchema>;

/** The log keys (current first, then retired) and the witness keys of one log's GetPublicKey answer. */
function keysOf(log: 'live' | 'test', k: ledgerV1.GetPublicKeyResponse): Key[] {
  return [
    ...k.keys.map((e) => ({
      role: 'log' as const,
      log,
      name: k.origin,
      key_id: e.keyId,
      verifier_key: e.verifierKey,
      current: e.current,
      not_before: e.notBefore || null,
      not_after: e.notAfter || null,
    })),
    ...k.witnesses.map((w) => ({
      role: 'witness' as const,
      log,
      name: w.name,
      key_id: w.keyId,
      verifier_key: w.verifierKey,
      current: true,
      not_before: null,
      not_after: null,
    })),
  ];
}

/**
 * GET /api/ledger/keys: every verifier key a relying party needs, in one place — the live log's keys
 * (current and retired), the witnesses that cosign its checkpoints, and the test log's key when this
 * service has one. JSON, or the bare verifier keys one a line with Accept: text/plain.
 */
export function ledgerKeysRoutes(ctx: GatewayContext): RouteModule {
  const keys = defineRoute({
    tags: ['Ledger'],
    security: 'public',
    method: 'get',
    path: '/api/ledger/keys',
    operationId: 'listLedgerKeys',
    summary: 'The verifier keys of the log and of its witnesses (C2SP signed-note format), for offline verification',
    description:
      'Each key is a C2SP note verifier key (golang.org/x/mod/sumdb/note): the log’s keys verify the checkpoints and ledger seals (`signet-verify --key`), the witnesses’ keys their cosignatures (`signet-verify --witness`, quorum `witness_quorum`). With Accept: text/plain, the verifier keys one a line in the same order.',
    responses: {
      200: {
        description: 'The keys',
        body: keysSchema,
        content: { 'text/plain': z.string() },
        headers: { 'Cache-Control': { description: 'public, max-age=300', schema: z.string() } },
      },
      ...errorResponses(),
    },
    async handle(_input, req, res) {
      const live = await ctx.ledger.getPublicKey({ log: 'live' });
      const test = await ctx.ledger.getPublicKey({ log: 'test' }).catch((err: unknown) => {
        if (err instanceof RpcError && err.code === status.NOT_FOUND) return null; // no test log here
        throw err;
      });
      const body = {
        logs: [
          { log: 'live' as const, origin: live.origin, witness_quorum: live.witnessQuorum },
          ...(test ? [{ log: 'test' as const, origin: test.origin, witness_quorum: test.witnessQuorum }] : []),
        ],
        keys: [...keysOf('live', live), ...(test ? keysOf('test', test) : [])],
      };
      res.setHeader('Cache-Control', 'public, max-age=300');
      if (req.accepts(['application/json', 'text/plain']) === 'text/plain')
        return void res.type('text/plain').send(body.keys.map((k) => k.verifier_key).join('\n') + '\n');
      return { status: 200 as const, body };
    },
  });

  const routes = [keys];
  const router = Router();
  mountRoutes(router, routes, { validateResponses: ctx.validateResponses });
  return { router, routes };
}
