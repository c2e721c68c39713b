/**
 * The local stack without Docker: infrastructure from local binaries, then the seven services,
 * each waited for on /readyz. Data and logs live under .data/stack. Usage:
 *   node --import tsx scripts/stack.ts up|down|status
 */
import { spawn } from 'node:child_process';
import { randomBytes, generateKeyPairSync, createPrivateKey, createPublicKey } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startLocalInfra, type InfraPorts } from '../test/harness/local-infra.js';
import { registerWitnessedLog, startWitness } from '../test/harness/witness.js';
import { formatVerifierKey } from '../packages/verify/src/note.js';

const root = join(import.meta.dirname, '..');
const dataDir = process.env.SIGNET_DATA ?? join(root, '.data/stack');
const pidFile = join(dataDir, 'pids.json');
const secretsFile = join(dataDir, 'secrets.json');
const base = Number(process.env.SIGNET_PORT_BASE ?? 0);

const ports: InfraPorts = {
  nats: 14222 + base,
  redis: 16379 + base,
  mongo: 27018 + base,
  s3: 19000 + base,
  s3Console: 19001 + base,
  smtp: 11025 + base,
  mailpit: 18025 + base,
  witness: 17380 + base,
  postgres: 15432 + base,
  tsa: 19318 + base,
};
const services = [
  { name: 'identity', grpc: 50051, ops: 9081 },
  { name: 'transaction', grpc: 50052, ops: 9082 },
  { name: 'ceremony', grpc: 50053, ops: 9083 },
  { name: 'biometrics', grpc: 50054, ops: 9084 },
  { name: 'ledger', grpc: 50055, ops: 9085 },
  { name: 'billing', grpc: 50056, ops: 9086 },
].map((s) => ({ ...s, grpc: s.grpc + base, ops: s.ops + base }));
const gateway = { http: 8080 + base, ops: 9080 + base };
/** The second, independent witness (own key, state and port): the stack's quorum is both witnesses. */
const witnessB = { port: 17381 + base, name: 'witness-b.signet.local' };

type Pids = { name: string; pid: number }[];
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};
const readPids = (): Pids => (existsSync(pidFile) ? (JSON.parse(readFileSync(pidFile, 'utf8')) as Pids) : []);

/** The test log's own Ed25519 key (test mode: test-mode certificates are sealed there, never in the live log). */
const testLogKey = () => generateKeyPairSync('ed25519').privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64');

/** Secrets are generated once per checkout and kept under .data (never committed, never defaults). */
function secrets(): Record<string, string> {
  if (existsSync(secretsFile)) {
    const kept = JSON.parse(readFileSync(secretsFile, 'utf8')) as Record<string, string>;
    // A secret added after the file was written (the completion mails' download links, the test
    // log's key) is added to it.
    const added: Record<string, string> = {};
    if (!kept.DOWNLOAD_LINK_SECRET) added.DOWNLOAD_LINK_SECRET = randomBytes(32).toString('base64url');
    if (!kept.LEDGER_TEST_SIGNING_KEY) added.LEDGER_TEST_SIGNING_KEY = testLogKey();
    if (!kept.WEBHOOK_ENDPOINT_KEY) added.WEBHOOK_ENDPOINT_KEY = randomBytes(32).toString('hex');
    if (!Object.keys(added).length) return kept;
    const s = { ...kept, ...added };
    writeFileSync(secretsFile, JSON.stringify(s, null, 2), { mode: 0o600 });
    return s;
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  const s = {
    JWT_SECRET: randomBytes(32).toString('base64url'),
    TOTP_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    WEBHOOK_SECRET: `whsec_${randomBytes(24).toString('base64')}`,
    LEDGER_SIGNING_KEY: privateKey.export({ format: 'der', type: 'pkcs8' }).toString('base64'),
    S3_SECRET_KEY: randomBytes(18).toString('base64url'),
    DOWNLOAD_LINK_SECRET: randomBytes(32).toString('base64url'),
    LEDGER_TEST_SIGNING_KEY: testLogKey(),
    WEBHOOK_ENDPOINT_KEY: randomBytes(32).toString('hex'),
  };
  writeFileSync(secretsFile, JSON.stringify(s, null, 2), { mode: 0o600 });
  return s;
}

/** The log's verifier key (public), from its private key as secrets() stores it. */
function logVerifierKey(signingKey: string, origin: string): string {
  const privateKey = createPrivateKey({ key: Buffer.from(signingKey, 'base64'), format: 'der', type: 'pkcs8' });
  const spki = createPublicKey(privateKey).export({ format: 'der', type: 'spki' });
  return formatVerifierKey(origin, spki.subarray(spki.length - 32));
}

async function ready(url: string, timeoutMs = 90_000): Promise<void> {
  const start = Date.now();
  while (Date.now() - start < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`${url} not ready after ${timeoutMs} ms`);
}

function printWhere() {
  console.log(`Signet is up.
  dashboard: http://127.0.0.1:${gateway.http}/app   (sign up; the code arrives in Mailpit)
  gateway:  http://127.0.0.1:${gateway.http}   (try /readyz, /api/openapi.json)
  mailpit:  http://127.0.0.1:${ports.mailpit}   (outgoing mail)
  tsa:      http://127.0.0.1:${ports.tsa}/signet-dev/tsa/tsa   (RFC 3161, dev CA in ${join(dataDir, 'tsa')})
  witnesses: http://127.0.0.1:${ports.witness} and http://127.0.0.1:${witnessB.port}   (quorum 2; keys at /api/ledger/keys)
  metrics:  http://127.0.0.1:${gateway.ops}/metrics and ports ${services.map((s) => s.ops).join(', ')}
  data and logs: ${dataDir}
Stop it with: ./scripts/stack.sh down`);
}

async function up() {
  const began = Date.now();
  mkdirSync(join(dataDir, 'logs'), { recursive: true });
  const running = readPids();
  if (running.length && running.every((p) => alive(p.pid))) {
    await ready(`http://127.0.0.1:${gateway.http}/readyz`, 5000).then(printWhere, async () => {
      console.log('stack processes exist but the gateway is not ready; restarting');
      await down();
      await up();
    });
    return;
  }
  if (running.length) await down();
  const sec = secrets();
  const infra = await startLocalInfra({ dataDir, ports, detached: true, s3Secret: sec.S3_SECRET_KEY });
  const pids: Pids = infra.procs.map((p) => ({ name: p.name, pid: p.pid }));
  // Two independent witnesses (scripts/witness.sh) know the ledger's log and key and cosign its
  // checkpoints; the quorum is both (a checkpoint is served once both cosigned it).
  const second = await startWitness({
    dir: join(dataDir, 'witness-b'),
    port: witnessB.port,
    name: witnessB.name,
    logs: join(dataDir, 'logs'),
    detached: true,
  });
  pids.push(...second.procs.map((p) => ({ name: `${p.name}-b`, pid: p.pid })));
  for (const db of [infra.urls.WITNESS_DB!, second.info.db])
    registerWitnessedLog(db, 'signet.local/ledger', logVerifierKey(sec.LEDGER_SIGNING_KEY!, 'signet.local/ledger'));
  writeFileSync(pidFile, JSON.stringify(pids));
  const env: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...infra.urls,
    ...sec,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    PUBLIC_BASE_URL: process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${gateway.http}`,
    WEBAUTHN_ORIGIN: process.env.PUBLIC_BASE_URL ?? `http://127.0.0.1:${gateway.http}`,
    WEBAUTHN_RP_ID: '127.0.0.1',
    LEDGER_WITNESSES: JSON.stringify([
      { url: infra.urls.WITNESS_URL, key: infra.urls.WITNESS_VERIFIER_KEY },
      { url: second.info.url, key: second.info.verifierKey },
    ]),
    LEDGER_WITNESS_QUORUM: '2',
    LEDGER_ORIGIN: 'signet.local/ledger',
    // The signed PDF's seal: the dev CA's sealing certificate and key (made at the TSA's first start) and its TSA.
    LEDGER_SEAL_CERT: join(infra.urls.DEV_PKI_DIR!, 'certs/seal.pem'),
    LEDGER_SEAL_KEY: join(infra.urls.DEV_PKI_DIR!, 'keys/seal.key.pem'),
    LEDGER_TSA_URLS: infra.urls.TSA_URL!,
    // PAdES B-LT: the dev root's CRL (served by certomancer beside the TSA) goes into each signed PDF.
    LEDGER_SEAL_LTV: 'on',
    // PAdES B-LTA: a document timestamp after the DSS (the dev root in the validation data), renewed before the TSA certificate expires.
    LEDGER_SEAL_LTA: 'on',
    LEDGER_SEAL_CA_CERTS: join(infra.urls.DEV_PKI_DIR!, 'certs/root.pem'),
    // The /verify page's signed-PDF check trusts the dev root (the seal's and the TSA's CA).
    VERIFY_TRUST_ROOTS: join(infra.urls.DEV_PKI_DIR!, 'certs/root.pem'),
    // Outgoing webhooks may reach a receiver on this machine (the policy refuses loopback by default).
    WEBHOOK_ALLOW_NETWORKS: process.env.WEBHOOK_ALLOW_NETWORKS ?? '127.0.0.0/8,::1/128',
    ...Object.fromEntries(services.map((s) => [`${s.name.toUpperCase()}_ADDR`, `127.0.0.1:${s.grpc}`])),
  };
  const start = (name: string, extra: Record<string, string>) => {
    const log = openSync(join(dataDir, 'logs', `${name}.log`), 'a');
    const child = spawn(process.execPath, [join(root, 'services', name, 'dist/main.js')], {
      env: { ...env, ...extra },
      stdio: ['ignore', log, log],
      detached: true,
    });
    closeSync(log);
    child.unref();
    pids.push({ name, pid: child.pid ?? -1 });
    writeFileSync(pidFile, JSON.stringify(pids));
  };
  for (const s of services) start(s.name, { GRPC_PORT: String(s.grpc), OPS_PORT: String(s.ops) });
  await Promise.all(services.map((s) => ready(`http://127.0.0.1:${s.ops}/readyz`)));
  start('gateway', { HTTP_PORT: String(gateway.http), OPS_PORT: String(gateway.ops) });
  await ready(`http://127.0.0.1:${gateway.http}/readyz`);
  printTimes(began);
  printWhere();
}

/** The start's own time and, from stack.sh, the total since `up` began (install and build included). */
function printTimes(began: number) {
  const s = (ms: number) => `${Math.round(ms / 1000)} s`.padStart(6);
  console.error(`[stack] ${'infrastructure and services'.padEnd(28)} ${s(Date.now() - began)}`);
  const since = Number(process.env.SIGNET_STACK_STARTED_AT);
  if (since) console.error(`[stack] ${'total'.padEnd(28)} ${s(Date.now() - since * 1000)}`);
}

async function down() {
  const pids = readPids();
  // Services first, then infrastructure (reverse start order).
  for (const p of [...pids].reverse()) if (alive(p.pid)) process.kill(p.pid, 'SIGTERM');
  const deadline = Date.now() + 15_000;
  while (pids.some((p) => alive(p.pid)) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
  for (const p of pids) if (alive(p.pid)) process.kill(p.pid, 'SIGKILL');
  writeFileSync(pidFile, '[]');
  console.log('Signet stopped.');
}

function status() {
  for (const p of readPids()) console.log(`${p.name.padEnd(12)} ${p.pid} ${alive(p.pid) ? 'running' : 'stopped'}`);
}

const cmd = process.argv[2] ?? 'up';
if (cmd === 'up') await up();
else if (cmd === 'down') await down();
else if (cmd === 'status') status();
else {
  console.error('usage: stack.ts up|down|status');
  process.exit(2);
}
