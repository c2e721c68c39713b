import { join } from 'node:path';
import { ESLint } from 'eslint';
import { beforeAll, describe, expect, it } from 'vitest';

// The layout rules of ../shared/STYLE.md ("Layout inside a service") as eslint.config.js enforces them:
// each snippet is linted as if it sat at `filePath` (the file need not exist).
const root = join(import.meta.dirname, '..');
const RULES = new Set(['no-restricted-imports', 'no-restricted-properties', 'no-restricted-syntax']);
let eslint: ESLint;

// The first lint loads the config, its plugins and the TypeScript parser: seconds on a busy machine, so it happens here.
beforeAll(async () => {
  eslint = new ESLint({ cwd: root, overrideConfigFile: join(root, 'eslint.config.js') });
  await eslint.lintText('export {};\n', { filePath: join(root, 'packages/kit/src/warm-up.ts') });
}, 60_000);

/** The layout findings (other rules, such as unused variables, are not this test's business). */
async function layoutFindings(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  return result.messages.filter((m) => m.ruleId !== null && RULES.has(m.ruleId)).map((m) => m.message);
}

const mongoose = "import mongoose from 'mongoose';\nexport const m = mongoose;\n";
const readsEnv = 'export const port = process.env.PORT;\n';
const imports = (from: string) => `import * as x from '${from}';\nexport { x };\n`;

describe('layout rules: reported', () => {
  it.each([
    ['a domain file importing mongoose', 'services/identity/src/domain/user.ts', mongoose, /no I\/O library/],
    ['a domain file importing gRPC', 'services/ledger/src/domain/x.ts', imports('@grpc/grpc-js'), /no I\/O library/],
    ['a domain file importing the S3 SDK', 'services/ledger/src/domain/x.ts', imports('@aws-sdk/client-s3'), /no I\/O library/],
    ['a domain file reading files', 'services/identity/src/domain/x.ts', imports('node:fs/promises'), /no file, process/],
    [
      'a domain file importing store/',
      'services/identity/src/domain/user.ts',
      imports('../store/user.repository.js'),
      /domain\//,
    ],
    [
      'a nested domain file importing usecases/',
      'services/billing/src/domain/a/b.ts',
      imports('../../usecases/x.js'),
      /domain\//,
    ],
    ['a domain file importing events/', 'services/billing/src/domain/x.ts', imports('../events/x.publisher.js'), /domain\//],
    ['a domain file importing metrics', 'services/billing/src/domain/x.ts', imports('../metrics.js'), /domain\//],
    ['a dynamic import in domain/', 'services/ledger/src/domain/x.ts', "export const m = () => import('mongoose');\n", /dynamic/],
    ['require in domain/', 'services/ledger/src/domain/x.ts', "export const m = require('mongoose');\n", /require/],
    ['a grpc file importing events/', 'services/ledger/src/grpc/log.handler.ts', imports('../events/x.js'), /grpc\//],
    ['an events file importing grpc/', 'services/ledger/src/events/x.consumer.ts', imports('../grpc/log.handler.js'), /events\//],
    [
      'a use case importing grpc/',
      'services/ceremony/src/usecases/x.ts',
      imports('../grpc/transaction.client.js'),
      /transport-free/,
    ],
    ['a use case importing a consumer', 'services/ledger/src/usecases/x.ts', imports('../events/verified.consumer.js'), /outbox/],
    ['a use case importing other event code', 'services/ledger/src/usecases/x.ts', imports('../events/registry.js'), /outbox/],
    [
      'another service by relative path',
      'services/identity/src/usecases/x.ts',
      imports('../../../ledger/src/domain/x.js'),
      /service/,
    ],
    ['the kit by relative path', 'services/identity/src/app.ts', imports('../../kit/src/index.js'), /service/],
    ['another service by package', 'services/gateway/src/http/x.ts', imports('@signet/identity/src/domain/x.js'), /service/],
    ['process.env outside config.ts', 'services/identity/src/usecases/x.ts', readsEnv, /src\/config\.ts/],
    ['process.env in app.ts', 'services/transaction/src/app.ts', readsEnv, /src\/config\.ts/],
    ['process.env in a nested config.ts', 'services/biometrics/src/analysis/config.ts', readsEnv, /src\/config\.ts/],
    ['process.env destructured', 'services/gateway/src/http/x.ts', 'const { env } = process;\nexport { env };\n', /config\.ts/],
    ['process["env"]', 'packages/kit/src/logger.ts', "export const e = process['env'];\n", /src\/config\.ts/],
    ['env from node:process', 'packages/kit/src/x.ts', "import { env } from 'node:process';\nexport { env };\n", /config\.ts/],
    ['Node I/O in ceremony media.ts still bars mongoose', 'services/ceremony/src/domain/media.ts', mongoose, /no I\/O/],
  ])('%s', async (_what, filePath, code, message) => {
    const found = await layoutFindings(filePath, code);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatch(message);
  });
});

describe('layout rules: the same imports where they belong', () => {
  it.each([
    ['mongoose in store/', 'services/identity/src/store/user.repository.ts', mongoose],
    ['store/ from a use case', 'services/identity/src/usecases/x.ts', imports('../store/user.repository.js')],
    ['domain/ from a use case', 'services/identity/src/usecases/x.ts', imports('../domain/session.js')],
    [
      'an outbox builder from a use case',
      'services/ledger/src/usecases/x.ts',
      imports('../events/certificate-issued.publisher.js'),
    ],
    ['a use case from grpc/', 'services/ledger/src/grpc/log.handler.ts', imports('../usecases/get-checkpoint.js')],
    ['a use case from events/', 'services/ledger/src/events/x.consumer.ts', imports('../usecases/issue-certificate.js')],
    ['events/ from the wiring', 'services/ledger/src/app.ts', imports('./events/verified.consumer.js')],
    ['a sibling domain file', 'services/identity/src/domain/user.ts', imports('./errors.js')],
    ['the kit in domain/', 'services/identity/src/domain/user.ts', imports('@signet/kit')],
    ['node:crypto in domain/', 'services/identity/src/domain/user.ts', imports('node:crypto')],
    ['generated clients anywhere', 'services/ceremony/src/grpc/x.client.ts', imports('@signet/proto')],
    ['the offline verifier in domain/', 'services/ledger/src/domain/x.ts', imports('@signet/verify')],
    ['a test fixture from a unit test', 'services/ceremony/src/domain/x.test.ts', imports('../../../../test/fixtures/x.js')],
    ['Node I/O in ceremony media.ts (known exception)', 'services/ceremony/src/domain/media.ts', imports('node:child_process')],
    ['process.env in config.ts', 'services/identity/src/config.ts', readsEnv],
    ['process.env in the kit config.ts', 'packages/kit/src/config.ts', readsEnv],
    ['process.env in a unit test', 'services/identity/src/domain/x.test.ts', readsEnv],
    ['process.env outside a service src', 'services/biometrics/eval/x.ts', readsEnv],
    ['process.env in scripts', 'scripts/x.ts', readsEnv],
    ['process.env in the bench', 'test/bench/x.bench.ts', readsEnv],
  ])('%s', async (_what, filePath, code) => {
    expect(await layoutFindings(filePath, code)).toEqual([]);
  });
});
