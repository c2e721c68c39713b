import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const protoDir = import.meta.dirname;
const buf = join(protoDir, '../node_modules/.bin/buf');

/** Runs buf in `cwd`; returns its exit status and output (buf prints findings on stdout). */
function runBuf(args: string[], cwd = protoDir): { status: number; out: string } {
  try {
    const out = execFileSync(buf, args, { cwd, encoding: 'utf8', stdio: 'pipe', timeout: 120_000 });
    return { status: 0, out };
  } catch (err) {
    const e = err as { status?: number; stdout?: string; stderr?: string };
    return { status: e.status ?? 1, out: `${e.stdout ?? ''}${e.stderr ?? ''}` };
  }
}

describe('the protobuf contracts', () => {
  const tmp = mkdtempSync(join(tmpdir(), 'signet-buf-'));
  afterAll(() => rmSync(tmp, { recursive: true, force: true }));

  it('pass buf lint (buf.yaml: STANDARD, with the shared request/response names excepted)', () => {
    const r = runBuf(['lint']);
    expect(r.out).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);

  it('make no wire or JSON breaking change against the last landed commit (buf breaking)', () => {
    const r = runBuf(['breaking', '--against', '../.git#ref=HEAD,subdir=proto']);
    expect(r.out).toBe('');
    expect(r.status).toBe(0);
  }, 120_000);

  it('buf breaking refuses a renumbered field (the check can fail)', () => {
    const before = join(tmp, 'before');
    const after = join(tmp, 'after');
    for (const d of [before, after]) {
      cpSync(join(protoDir, 'signet'), join(d, 'signet'), { recursive: true });
      cpSync(join(protoDir, 'buf.yaml'), join(d, 'buf.yaml'));
    }
    const file = join(after, 'signet/transaction/v1/transaction.proto');
    const src = readFileSync(file, 'utf8');
    const changed = src.replace(/(message TransactionActionRequest \{[^}]*?string owner_id = )1;/, '$199;');
    expect(changed).not.toBe(src);
    writeFileSync(file, changed);
    const r = runBuf(['breaking', '--against', before], after);
    expect(r.status).not.toBe(0);
    expect(r.out).toMatch(/TransactionActionRequest/);
  }, 120_000);
});
