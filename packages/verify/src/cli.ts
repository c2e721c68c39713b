#!/usr/bin/env node
/**
 * signet-verify cert.json document.pdf --key <verifier key | file>
 *   [--witness <witness key | file>]… [--quorum <n>] [--state <file>] [--consistency <file | URL>] [--media <file>]… [--json]
 * Exit 0 when every check holds, 1 when any fails, 2 on a usage or input error.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseServedKeys, type LogKey } from './keys.js';
import { parseVerifierKey } from './note.js';
import { verifyBundle } from './bundle.js';
import { parseState, rememberCheckpoint, type ConsistencyProof, type RememberedCheckpoint } from './state.js';
import { witnessPolicy, type WitnessPolicy } from './witness.js';

const USAGE = `usage: signet-verify <cert.json> <document.pdf> --key <verifier key, or a file holding it>
  [--witness <witness key, or a file of keys one a line>]... [--quorum <n, default: every witness>]
  [--state <file remembering the last checkpoint seen>] [--consistency <proof JSON file or URL>]
  [--media <video, frame or photo file, checked against the owner's commitment openings>]... [--json]`;

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

/**
 * The log keys: a verifier key, a file of them one a line, or the JSON GET /api/ledger/public-key
 * serves, saved as is (every key in `keys` with its period; a server before rotation: `verifier_key`).
 */
function loadKeys(arg: string): LogKey[] {
  const text = existsSync(arg) ? readFileSync(arg, 'utf8').trim() : arg.trim();
  if (text.startsWith('{')) return parseServedKeys(JSON.parse(text));
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'));
  if (lines.length === 0) throw new Error('no log key given');
  return lines.map(parseVerifierKey);
}

/** Witness keys: each argument a key or a file of keys, one a line (blank lines and # comments skipped). */
function loadWitnessKeys(args: string[]): string[] {
  return args.flatMap((a) =>
    existsSync(a)
      ? readFileSync(a, 'utf8')
          .split('\n')
          .map((l) => l.trim())
          .filter((l) => l && !l.startsWith('#'))
      : [a],
  );
}

async function loadConsistency(arg: string): Promise<ConsistencyProof> {
  if (/^https?:\/\//.test(arg)) {
    const res = await fetch(arg, { signal: AbortSignal.timeout(15_000) });
    if (!res.ok) throw new Error(`${arg} answered ${res.status}`);
    return (await res.json()) as ConsistencyProof;
  }
  return JSON.parse(readFileSync(arg, 'utf8')) as ConsistencyProof;
}

type Args = {
  certPath: string;
  pdfPath: string;
  key: string;
  witnesses: string[];
  quorum?: number;
  state?: string;
  consistency?: string;
  media: string[];
  json: boolean;
};

function parseArgs(argv: string[]): Args | null {
  const positional: string[] = [];
  const a: Partial<Args> & { witnesses: string[]; media: string[]; json: boolean } = { witnesses: [], media: [], json: false };
  const value = (i: number, name: string) => {
    const v = argv[i];
    if (v === undefined) throw new Error(`${name} needs a value`);
    return v;
  };
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const [flag, inline] =
      arg.startsWith('--') && arg.includes('=')
        ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
        : [arg, undefined];
    const next = () => inline ?? value(++i, flag);
    if (flag === '--key') a.key = next();
    else if (flag === '--witness') a.witnesses.push(next());
    else if (flag === '--quorum') {
      const q = next();
      if (!/^\d+$/.test(q)) throw new Error('--quorum must be a whole number');
      a.quorum = Number(q);
    } else if (flag === '--state') a.state = next();
    else if (flag === '--consistency') a.consistency = next();
    else if (flag === '--media') a.media.push(next());
    else if (flag === '--json') a.json = true;
    else if (flag === '-h' || flag === '--help') return null;
    else if (flag.startsWith('--')) throw new Error(`unknown option ${flag}`);
    else positional.push(arg);
  }
  if (positional.length !== 2 || !a.key) return null;
  if (a.quorum !== undefined && a.witnesses.length === 0) throw new Error('--quorum needs --witness keys');
  return { ...a, certPath: positional[0]!, pdfPath: positional[1]!, key: a.key } as Args;
}

export async function main(argv: string[]): Promise<number> {
  let args: Args | null;
  let key: LogKey[];
  let media: string[];
  let bundle: unknown;
  let docHash: string;
  let witnesses: WitnessPolicy | undefined;
  let remembered: RememberedCheckpoint | undefined;
  let consistency: ConsistencyProof | undefined;
  try {
    args = parseArgs(argv);
    if (!args) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    key = loadKeys(args.key);
    if (args.witnesses.length) witnesses = witnessPolicy(loadWitnessKeys(args.witnesses), args.quorum);
    if (args.state && existsSync(args.state)) remembered = parseState(JSON.parse(readFileSync(args.state, 'utf8')));
    if (args.consistency) consistency = await loadConsistency(args.consistency);
    bundle = JSON.parse(readFileSync(args.certPath, 'utf8'));
    docHash = await sha256File(args.pdfPath);
    media = await Promise.all(args.media.map(sha256File));
  } catch (err) {
    process.stderr.write(`signet-verify: ${(err as Error).message}\n`);
    return 2;
  }
  const report = verifyBundle(bundle, { key, documentSha256: docHash, witnesses, remembered, consistency, media });
  // Only a checkpoint that passed every check is remembered, and only when it moves the log forward.
  if (args.state && report.ok && report.checkpoint && (!remembered || report.checkpoint.size > remembered.tree_size)) {
    const tmp = `${args.state}.tmp`;
    writeFileSync(
      tmp,
      `${JSON.stringify(rememberCheckpoint(report.checkpoint, (bundle as { checkpoint: string }).checkpoint), null, 2)}\n`,
    );
    renameSync(tmp, args.state);
  }
  if (args.json) process.stdout.write(`${JSON.stringify({ ...report, checkpoint: undefined }, null, 2)}\n`);
  else {
    for (const c of report.checks) process.stdout.write(`${c.ok ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}\n`);
    process.stdout.write(report.ok ? `VALID certificate ${report.reference}\n` : 'NOT VALID\n');
  }
  return report.ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
