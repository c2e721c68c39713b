#!/usr/bin/env node
/**
 * signet-verify cert.json document.pdf --key <verifier key | file>
 * Exit 0 when every check holds, 1 when any fails, 2 on a usage or input error.
 */
import { createHash } from 'node:crypto';
import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { parseVerifierKey, type VerifierKey } from './note.js';
import { verifyBundle } from './bundle.js';

const USAGE = 'usage: signet-verify <cert.json> <document.pdf> --key <verifier key, or a file holding it> [--json]';

async function sha256File(path: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of createReadStream(path)) h.update(chunk as Buffer);
  return h.digest('hex');
}

function loadKey(arg: string): VerifierKey {
  const text = existsSync(arg) ? readFileSync(arg, 'utf8').trim() : arg.trim();
  return parseVerifierKey(text);
}

function parseArgs(argv: string[]) {
  const positional: string[] = [];
  let key: string | undefined;
  let json = false;
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    if (a === '--key') key = argv[++i];
    else if (a.startsWith('--key=')) key = a.slice(6);
    else if (a === '--json') json = true;
    else if (a === '-h' || a === '--help') return null;
    else if (a.startsWith('--')) throw new Error(`unknown option ${a}`);
    else positional.push(a);
  }
  if (positional.length !== 2 || !key) return null;
  return { certPath: positional[0]!, pdfPath: positional[1]!, key, json };
}

export async function main(argv: string[]): Promise<number> {
  let args: ReturnType<typeof parseArgs>;
  let key: VerifierKey;
  let bundle: unknown;
  let docHash: string;
  try {
    args = parseArgs(argv);
    if (!args) {
      process.stderr.write(`${USAGE}\n`);
      return 2;
    }
    key = loadKey(args.key);
    bundle = JSON.parse(readFileSync(args.certPath, 'utf8'));
    docHash = await sha256File(args.pdfPath);
  } catch (err) {
    process.stderr.write(`signet-verify: ${(err as Error).message}\n`);
    return 2;
  }
  const report = verifyBundle(bundle, { key, documentSha256: docHash });
  if (args.json) process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  else {
    for (const c of report.checks) process.stdout.write(`${c.ok ? 'PASS' : 'FAIL'} ${c.name}: ${c.detail}\n`);
    process.stdout.write(report.ok ? `VALID certificate ${report.reference}\n` : 'NOT VALID\n');
  }
  return report.ok ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
