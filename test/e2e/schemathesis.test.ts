/**
 * The public API fuzzed (issue 16): schemathesis (scripts/schemathesis-venv.sh, pinned) generates
 * requests from /api/openapi.json of a stack the harness starts and sends them through the gateway,
 * authenticated with a test-mode API key (free, so thousands of creations use no quota). Its checks:
 * no 5xx, every status, content type, header and body as the document declares; examples, coverage,
 * fuzzing and stateful phases with a fixed seed and a per-operation budget. The test reads
 * schemathesis' JSON report and fails listing what it found.
 */
import { spawn } from 'node:child_process';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createHash, randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

const CACHE = process.env.SIGNET_CACHE ?? join(homedir(), '.cache/signet');
const SCHEMATHESIS = join(CACHE, 'schemathesis-venv/bin/schemathesis');
const CHECKS = [
  'not_a_server_error',
  'status_code_conformance',
  'content_type_conformance',
  'response_schema_conformance',
  'response_headers_conformance',
];
/** Examples per operation and phase: with the coverage phase's cases this gives well over 2,000 cases in a few minutes. */
const MAX_EXAMPLES = Number(process.env.SCHEMATHESIS_MAX_EXAMPLES ?? 25);
const SEED = 16;
const MIN_CASES = 2000;

/** Runs schemathesis in `cwd` (it keeps a .schemathesis cache there: the run's temporary folder, not the checkout). */
function run(args: string[], cwd: string, webhookUrl: string): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    // The hooks teach it to send application/pdf bodies and keep webhook endpoints on the loopback
    // receiver (test/support/schemathesis_hooks.py).
    const env = {
      ...process.env,
      SCHEMATHESIS_HOOKS: 'schemathesis_hooks',
      PYTHONPATH: join(import.meta.dirname, '../support'),
      SIGNET_FUZZ_WEBHOOK_URL: webhookUrl,
    };
    const child = spawn(SCHEMATHESIS, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.on('exit', (code) => resolve({ code, out }));
  });
}

/** What the run found, one line per finding, from schemathesis' JSON report. */
export function findingsOf(report: {
  failures?: { code?: string; title?: string; count?: number; operations?: string[] }[];
  errors?: { title?: string; message?: string; operations?: string[] }[];
}): string[] {
  return [
    ...(report.failures ?? []).map(
      (f) => `${f.code ?? ''} ${f.title ?? 'failure'} ×${f.count ?? 1}: ${(f.operations ?? []).join(', ')}`,
    ),
    ...(report.errors ?? []).map((e) => `error ${JSON.stringify(e).slice(0, 500)}`),
  ];
}

/** The FAILURES section of schemathesis' output (status, body and a curl line per failure), bounded. */
const failuresText = (out: string) => {
  const marks = ['= ERRORS =', '= FAILURES ='].map((m) => out.indexOf(m)).filter((i) => i >= 0);
  const at = marks.length ? Math.min(...marks) : -1;
  if (at < 0) return '';
  const end = out.indexOf('= WARNINGS =', at);
  return out.slice(at, end < 0 ? undefined : end).slice(0, 6000);
};

describe('schemathesis against the gateway (test-mode key)', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let testKey: string;
  let dir: string;
  const known: Record<string, string> = {};
  // The one receiver webhook endpoints created by the run may point at: loopback, answering 204.
  let receiver: Server;
  let receiverUrl: string;

  beforeAll(async () => {
    if (!existsSync(SCHEMATHESIS))
      throw new Error(`${SCHEMATHESIS} is missing: run scripts/install.sh (scripts/schemathesis-venv.sh)`);
    dir = mkdtempSync(join(tmpdir(), 'signet-schemathesis-'));
    receiver = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(204).end());
    });
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r));
    receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/signet-fuzz`;
    stack = await startServices(['identity', 'billing', 'transaction', 'ceremony', 'ledger', 'gateway'], {
      // AUTH_RATE_LIMIT_SCALE: the auth routes' limits would otherwise answer most of the run with 429.
      // VERIFY_TRUST_ROOTS: the signed-PDF check is configured, so its cases reach the PDF parsing, not a 404.
      env: {
        REFERENCE_PREFIX: 'FUZZ',
        REFERENCE_FACE_CHECK: 'off',
        AUTH_RATE_LIMIT_SCALE: '1000',
        // Endpoints the run creates point at the loopback receiver (the hooks pin every url to it).
        WEBHOOK_ALLOW_NETWORKS: '127.0.0.0/8',
        ...(infra().DEV_PKI_DIR ? { VERIFY_TRUST_ROOTS: join(infra().DEV_PKI_DIR!, 'certs/root.pem') } : {}),
      },
    });
    const acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'fuzzer' });
    const session = { token: acct.token };
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', session)).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...session,
      json: { name: 'fuzz', mode: 'test' },
    });
    testKey = key.body.key as string;
    expect(testKey).toMatch(/^sgn_test_/);
    // Real identifiers, so the operations on one transaction, its signing link and its certificate
    // reach their logic rather than 404 (schemathesis still fuzzes every other part of the request).
    const pdf = tinyPdf(randomUUID());
    const created = await send(stack.gatewayUrl, 'POST', '/api/transactions', {
      apiKey: testKey,
      parts: [
        { name: 'signer_name', value: 'Fuzz Signer' },
        { name: 'signer_email', value: 'fuzz.signer@example.com' },
        { name: 'document', data: pdf, filename: 'c.pdf', contentType: 'application/pdf' },
        { name: 'reference', data: pngPhoto(), filename: 'f.png', contentType: 'image/png' },
      ],
    });
    expect(created.status, created.text).toBe(201);
    known.id = String(created.body.id);
    known.token = created.body.token as string;
    known.reference = created.body.reference as string;
    known.hash = createHash('sha256').update(pdf).digest('hex').slice(0, 16);
  }, 120_000);

  afterAll(async () => {
    await stack?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
    await new Promise((r) => (receiver ? receiver.close(r) : r(undefined)));
  });

  it(
    `finds no server error and no conformance failure in at least ${MIN_CASES} cases`,
    async () => {
      const report = join(dir, 'report.json');
      const config = join(dir, 'schemathesis.toml');
      writeFileSync(
        config,
        [
          '[parameters]',
          `"path.id" = "${known.id}"`,
          `"path.token" = "${known.token}"`,
          `"path.reference" = "${known.reference}"`,
          `"path.label" = "${known.reference}"`,
          `"path.hash" = "${known.hash}"`,
          `"query.hash" = "${known.hash}"`,
          '',
        ].join('\n'),
      );
      const r = await run(
        [
          '--config-file',
          config,
          'run',
          `${stack.gatewayUrl}/api/openapi.json`,
          '--url',
          stack.gatewayUrl,
          '--checks',
          CHECKS.join(','),
          '--phases',
          'examples,coverage,fuzzing,stateful',
          '--max-examples',
          String(MAX_EXAMPLES),
          '--seed',
          String(SEED),
          // One worker: with threads, CPython 3.11's ast.parse (under hypothesis' lambda descriptions)
          // sometimes fails with "AST constructor recursion depth mismatch", a runtime error of the tool.
          '--workers',
          '1',
          '--request-timeout',
          '20',
          '--header',
          `x-api-key: ${testKey}`,
          '--report',
          'json',
          '--report-json-path',
          report,
          '--output-truncate',
          'true',
          '--no-color',
        ],
        dir,
        receiverUrl,
      );
      expect(existsSync(report), r.out.slice(-4000)).toBe(true);
      const parsed = JSON.parse(readFileSync(report, 'utf8')) as Parameters<typeof findingsOf>[0] & {
        test_cases: { generated: number };
        operations: { tested: number; total: number };
      };
      const findings = findingsOf(parsed);
      process.stderr.write(
        `schemathesis: ${parsed.test_cases.generated} cases, ${parsed.operations.tested}/${parsed.operations.total} operations, ${findings.length} findings\n`,
      );
      process.stderr.write(`${r.out.slice(r.out.lastIndexOf('= SUMMARY ='))}\n`);
      expect(findings, `schemathesis found:\n${findings.join('\n')}\n\n${failuresText(r.out)}`).toEqual([]);
      expect(parsed.test_cases.generated).toBeGreaterThanOrEqual(MIN_CASES);
      expect(parsed.operations.tested).toBe(parsed.operations.total);
      // The service was never handed a URL of the fuzzer's making: every endpoint left points at the receiver.
      const endpoints = await send(stack.gatewayUrl, 'GET', '/api/webhook-endpoints', { apiKey: testKey });
      expect(endpoints.status, endpoints.text).toBe(200);
      const urls = (endpoints.body as { url: string }[]).map((e) => e.url);
      expect(urls.filter((u) => u !== receiverUrl)).toEqual([]);
      // Not vacuous: the run did create endpoints (each with its url pinned by the hook).
      expect(urls.length).toBeGreaterThan(0);
    },
    15 * 60_000,
  );
});
