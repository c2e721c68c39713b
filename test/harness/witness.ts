/**
 * A real C2SP tlog witness for the local stack and the tests: litewitness (filippo.io/torchwood,
 * built by scripts/witness.sh). It takes its Ed25519 key from an ssh-agent (a dedicated one, started
 * here with a key generated on first start under `dir`) and keeps the logs it knows in SQLite;
 * registerWitnessedLog does what its witnessctl add-log/add-key would (which does not build here).
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { formatWitnessKey } from '@signet/verify';

export type WitnessInfo = {
  /** add-checkpoint base URL. */
  url: string;
  /** Its cosignature/v1 verifier key (public). */
  verifierKey: string;
  /** Its SQLite database (for registerWitnessedLog). */
  db: string;
};

export type WitnessProcess = { name: string; pid: number; proc: ChildProcess };

const bin = () => process.env.SIGNET_BIN ?? join(process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet'), 'bin');

/** The ssh public key file's Ed25519 key: SHA256 fingerprint (as ssh-keygen -l prints it) and raw 32 bytes. */
function sshPublicKey(pubFile: string): { fingerprint: string; raw: Buffer } {
  const blob = Buffer.from(readFileSync(pubFile, 'utf8').trim().split(/\s+/)[1]!, 'base64');
  const fingerprint = `SHA256:${createHash('sha256').update(blob).digest('base64').replace(/=+$/, '')}`;
  return { fingerprint, raw: blob.subarray(blob.length - 32) };
}

async function until(what: string, probe: () => Promise<boolean> | boolean, procs: WitnessProcess[], timeoutMs = 30_000) {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    const dead = procs.find((p) => p.proc.exitCode !== null);
    if (dead) throw new Error(`${dead.name} exited with code ${dead.proc.exitCode}; see its log`);
    if (await Promise.resolve(probe()).catch(() => false)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not ready after ${timeoutMs} ms`);
}

/**
 * Starts an ssh-agent holding the witness key (made at the first start in `dir`) and litewitness on
 * 127.0.0.1:`port`. With detached, both outlive this process (the local stack records their pids).
 */
export async function startWitness(opts: { dir: string; port: number; name: string; logs: string; detached?: boolean }) {
  mkdirSync(opts.dir, { recursive: true });
  mkdirSync(opts.logs, { recursive: true });
  const keyFile = join(opts.dir, 'witness-key');
  if (!existsSync(keyFile)) execFileSync('ssh-keygen', ['-q', '-t', 'ed25519', '-N', '', '-C', opts.name, '-f', keyFile]);
  const { fingerprint, raw } = sshPublicKey(`${keyFile}.pub`);
  const sock = join(opts.dir, 'agent.sock');
  rmSync(sock, { force: true });
  const procs: WitnessProcess[] = [];
  const run = (name: string, cmd: string, args: string[]) => {
    const out = openSync(join(opts.logs, `${name}.log`), 'a');
    const proc = spawn(cmd, args, { stdio: ['ignore', out, out], detached: opts.detached ?? false });
    closeSync(out);
    if (opts.detached) proc.unref();
    procs.push({ name, pid: proc.pid ?? -1, proc });
    return proc;
  };
  const stop = async () => {
    await Promise.all(
      procs.map(
        (p) =>
          new Promise<void>((resolve) => {
            if (p.proc.exitCode !== null || p.proc.signalCode !== null) return resolve();
            p.proc.once('exit', () => resolve());
            p.proc.kill('SIGTERM');
            setTimeout(() => p.proc.kill('SIGKILL'), 5000).unref();
          }),
      ),
    );
  };
  try {
    run('witness-agent', 'ssh-agent', ['-D', '-a', sock]);
    await until('ssh-agent', () => existsSync(sock), procs);
    execFileSync('ssh-add', ['-q', keyFile], { env: { ...process.env, SSH_AUTH_SOCK: sock }, stdio: 'ignore' });
    const url = `http://127.0.0.1:${opts.port}`;
    run('witness', join(bin(), 'litewitness'), [
      '-name',
      opts.name,
      '-db',
      join(opts.dir, 'witness.db'),
      '-ssh-agent',
      sock,
      '-key',
      fingerprint,
      '-listen',
      `127.0.0.1:${opts.port}`,
    ]);
    await until('litewitness', async () => (await fetch(`${url}/`)).ok, procs);
    const info: WitnessInfo = { url, verifierKey: formatWitnessKey(opts.name, raw), db: join(opts.dir, 'witness.db') };
    return { info, procs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

const sql = (v: string) => `'${v.replace(/'/g, "''")}'`;

/**
 * Makes the witness know a log (origin, starting at size 0) and trust its verifier key, as witnessctl
 * add-log and add-key do; idempotent. Safe while the witness runs (SQLite, WAL, busy timeout).
 */
export function registerWitnessedLog(db: string, origin: string, logVerifierKey: string): void {
  const emptyRoot = createHash('sha256').digest('base64');
  execFileSync('sqlite3', [
    '-cmd',
    '.timeout 10000',
    db,
    `INSERT OR IGNORE INTO log (origin, tree_size, tree_hash) VALUES (${sql(origin)}, 0, ${sql(emptyRoot)});
     INSERT INTO key (origin, key) SELECT ${sql(origin)}, ${sql(logVerifierKey)}
       WHERE NOT EXISTS (SELECT 1 FROM key WHERE origin = ${sql(origin)} AND key = ${sql(logVerifierKey)});`,
  ]);
}
