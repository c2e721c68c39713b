import { z } from 'zod';
import { baseSchema, env } from '@signet/kit';

export const ledgerConfigSchema = baseSchema.extend({
  GRPC_PORT: env.port,
  MONGO_URL: env.mongoUrl,
  MONGO_DB: z.string().default('signet_ledger'),
  NATS_URL: env.natsUrl,
});

export type LedgerConfig = z.infer<typeof ledgerConfigSchema>;
