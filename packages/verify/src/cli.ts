#!/usr/bin/env node
/**
 * signet-verify cert.json document.pdf --key <verifier key | file>
 *   [--witness <witness key | file>]… [--quorum <n>] [--state <file>] [--consistency <file | URL>] [--media <file>]… [--json]
 * signet-verify signed.pdf --key <verifier key | file> --roots <PEM file> [--witness …] [--quorum <n>] [--state …] [--json]
 * Exit 0 when every check holds, 1 when any fails, 2 on a usage or input error.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { parseServedKeys, type LogKey } from './keys.js';
import { parseVerifierKey } from './note.js';
import { verifyBundle, type BundleReport, type Check } from './bundle.js';
import { parseState, rememberCheckpoint, type ConsistencyProof, type RememberedCheckpoint } from './state.js';
import { witnessPolicy, type WitnessPolicy } from './witness.js';

const USAGE = `usage: signet-verify <cert.json> <document.pdf> --key <verifier key, or a file holding it>
  [--witness <witness key, or a file of keys one a line>]... [--quorum <n, default: every witness>]
  [--state <file remembering the last checkpoint seen>] [--consistency <proof JSON file or URL>]
  [--media <video, frame or photo file, checked against the owner's commitment openings>]... [--json]
   or: signet-verify <signed.pdf> --key <verifier key or file> --roots <PEM file of the roots the seal and TSA chain to>
  [--witness ...]... [--quorum <n>] [--state <file>] [--consistency <file or URL>] [--json]`;

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
  /** Absent: `pdfPath` is a signed PDF carrying its own cert.json. */
  certPath?: string;
  pdfPath: string;
  roots?: string;
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
    else if (flag === '--roots') a.roots = next();
    else if (flag === '--json') a.json = true;
    else if (flag === '-h' || flag === '--help') return null;
    else if (flag.startsWith('--')) throw new Error(`unknown option ${flag}`);
    else positional.push(arg);
  }
  if (positional.length < 1 || positional.length > 2 || !a.key) return null;
  if (a.quorum !== undefined && a.witnesses.length === 0) throw new Error('--quorum needs --witness keys');
  if (positional.length === 1) {
    if (!a.roots) throw new Error('a signed PDF is checked with --roots <PEM file of the roots its seal and timestamp chain to>');
    if (a.media.length) throw new Error('--media takes the owner’s cert.json, which a signed PDF does not carry');
    return { ...a, pdfPath: positional[0]!, key: a.key } as Args;
  }
  return { ...a, certPath: positional[0]!, pdfPath: positional[1]!, key: a.key } as Args;
}

type Common = {
  key: LogKey[];
  witnesses?: WitnessPolicy;
  remembered?: RememberedCheckpoint;
  consistency?: ConsistencyProof;
};

/** Remembers a checkpoint that passed every check, only when it moves the log forward. */
function remember(state: string | undefined, c: Common, checkpoint: BundleReport['checkpoint'], note: unknown) {
  if (!state || !checkpoint || typeof note !== 'string' || (c.remembered && checkpoint.size <= c.remembered.tree_size)) return;
  const tmp = `${state}.tmp`;
  writeFileSync(tmp, `${JSON.stringify(rememberCheckpoint(checkpoint, note), null, 2)}\n`);
  renameSync(tmp, state);
}

function print(args: Args, report: { ok: boolean; checks: Check[]; reference?: string }) {
  if (args.json) process.stdout.write(`${JSON.stringify({ ...report, checkpoint: undefined }, null, 2)}\n`);
  else {
    for (const c of report.checks) process.stdout.write(`${c.ok ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}\n`);
    process.stdout.write(report.ok ? `VALID certificate ${report.reference}\n` : 'NOT VALID\n');
  }
  return report.ok ? 0 : 1;
}

/** cert.json and the original document. */
async function verifyFiles(args: Args & { certPath: string }, c: Common): Promise<number> {
  let bundle: unknown;
  let docHash: string;
  let media: string[];
  try {
    bundle = JSON.parse(readFileSync(args.certPath, 'utf8'));
    docHash = await sha256File(args.pdfPath);
    media = await Promise.all(args.media.map(sha256File));
  } catch (err) {
    process.stderr.write(`signet-verify: ${(err as Error).message}\n`);
    return 2;
  }
  const report = verifyBundle(bundle, { ...c, documentSha256: docHash, media });
  if (report.ok) remember(args.state, c, report.checkpoint, (bundle as { checkpoint?: unknown }).checkpoint);
  return print(args, report);
}

/**
 * A signed PDF on its own (issue 32): its seal, timestamp and byte range, its first revision against
 * the certified hash, and the cert.json it carries (with the witnesses when given). pdf-lib and pkijs
 * are loaded only here.
 */
async function verifyPdf(args: Args, c: Common): Promise<number> {
  const { verifySignedPdf, parsePemCertificates, SignedPdfError } = await import('./signed-pdf.js');
  let pdf: Buffer;
  let roots;
  try {
    pdf = readFileSync(args.pdfPath);
    roots = parsePemCertificates(readFileSync(args.roots!, 'utf8'));
    if (!roots.length) throw new Error(`no certificate in ${args.roots}`);
  } catch (err) {
    process.stderr.write(`signet-verify: ${(err as Error).message}\n`);
    return 2;
  }
  try {
    const report = await verifySignedPdf(pdf, { trustRoots: roots, logKeys: [{ keys: c.key, log: 'live' }], ...c });
    if (report.ok) remember(args.state, c, report.checkpoint, report.checkpointNote);
    return print(args, report);
  } catch (err) {
    if (!(err instanceof SignedPdfError)) throw err;
    return print(args, { ok: false, checks: [{ name: 'signed pdf', ok: false, detail: err.message }] });
  }
}

export async function main(argv: string[]): Promise<number> {
  let args: Args | null;
  const c: Common = { key: [] };
  try {
    args = parseArgs(argv);
    if (!args) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    c.key = loadKeys(args.key);
    if (args.witnesses.length) c.witnesses = witnessPolicy(loadWitnessKeys(args.witnesses), args.quorum);
    if (args.state && existsSync(args.state)) c.remembered = parseState(JSON.parse(readFileSync(args.state, 'utf8')));
    if (args.consistency) c.consistency = await loadConsistency(args.consistency);
  } catch (err) {
    process.stderr.write(`signet-verify: ${(err as Error).message}\n`);
    return 2;
  }
  return args.certPath ? verifyFiles({ ...args, certPath: args.certPath }, c) : verifyPdf(args, c);
}

process.exitCode = await main(process.argv.slice(2));
