import { z } from 'zod';
import { env } from '@signet/kit';
import { parseWitnessKey, type WitnessKey } from '@signet/verify';

const witnessEntry = z.object({
  url: env.httpUrl,
  key: z.string().refine((k) => {
    try {
      parseWitnessKey(k);
      return true;
    } catch {
      return false;
    }
  }, 'key must be a witness verifier key <name>+<key id>+<base64(0x04 ‖ Ed25519 key)>'),
});

/**
 * The C2SP tlog witnesses that cosign the log's checkpoints (LedgerConfig includes these fields).
 * None configured: checkpoints are served with the log's signature alone (said in the start log).
 */
export const witnessConfigFields = {
  /** JSON list of witnesses, each {"url": add-checkpoint base URL, "key": its cosignature verifier key}; none by default. */
  LEDGER_WITNESSES: z
    .string()
    .default('[]')
    .transform((v, ctx) => {
      try {
        return JSON.parse(v) as unknown;
      } catch {
        ctx.addIssue({ code: 'custom', message: 'must be a JSON list of {"url", "key"}' });
        return z.NEVER;
      }
    })
    .pipe(z.array(witnessEntry)),
  /** How many witnesses must cosign a checkpoint before it is served (default: all of them). */
  LEDGER_WITNESS_QUORUM: z.coerce.number().int().min(0).optional(),
  /** How often a replica submits the newest checkpoint to the witnesses that have not cosigned it. */
  LEDGER_COSIGN_POLL_MS: env.duration.default(5000),
  /** Deadline of one add-checkpoint request to a witness. */
  LEDGER_WITNESS_TIMEOUT_MS: env.duration.default(5000),
};

/** The witness fields alone (the chart test parses the rendered ConfigMap with them). */
export const witnessConfigSchema = z.object(witnessConfigFields);

export type Witness = { name: string; url: string; key: WitnessKey; kid: string };
export type WitnessSettings = { witnesses: Witness[]; quorum: number; pollMs: number; timeoutMs: number };

type WitnessConfig = {
  LEDGER_WITNESSES: { url: string; key: string }[];
  LEDGER_WITNESS_QUORUM?: number;
  LEDGER_COSIGN_POLL_MS: number;
  LEDGER_WITNESS_TIMEOUT_MS: number;
};

/** The witnesses and quorum of the configuration; throws a config error when the quorum exceeds them. */
export function witnessSettings(cfg: WitnessConfig): WitnessSettings {
  const witnesses = cfg.LEDGER_WITNESSES.map((w) => {
    const key = parseWitnessKey(w.key);
    return { name: key.name, url: w.url.replace(/\/+$/, ''), key, kid: key.keyId.toString('hex') };
  });
  if (new Set(witnesses.map((w) => w.kid)).size !== witnesses.length)
    throw new Error('config error: LEDGER_WITNESSES: a witness key is listed twice');
  const quorum = cfg.LEDGER_WITNESS_QUORUM ?? witnesses.length;
  if (quorum > witnesses.length)
    throw new Error(
      `config error: LEDGER_WITNESS_QUORUM: ${quorum} exceeds the ${witnesses.length} witness(es) of LEDGER_WITNESSES`,
    );
  return { witnesses, quorum, pollMs: cfg.LEDGER_COSIGN_POLL_MS, timeoutMs: cfg.LEDGER_WITNESS_TIMEOUT_MS };
}
