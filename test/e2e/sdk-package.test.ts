/**
 * The SDK as an integrator installs it (issue 34 item 7): `npm pack` in packages/sdk builds and packs
 * it; a fresh project outside the workspace installs the tarball offline (its one dependency,
 * openapi-fetch, and that one's, packed from the workspace's store: no registry), compiles a program
 * against it with tsc (ESM, the package's own types, both entries) and runs it against the gateway: it
 * creates a transaction with a test-mode key and reads it back. The packed package.json carries no
 * workspace protocol, no devDependencies and no file outside what it ships.
 */
import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pngPhoto, tinyPdf } from '../fixtures/documents.js';
import { createAccount, type Account } from '../harness/accounts.js';
import { infra, startServices } from '../harness/services.js';
import { send } from '../support/http.js';

const ROOT = join(import.meta.dirname, '../..');
const SDK = join(ROOT, 'packages/sdk');
const TSC = join(ROOT, 'node_modules/typescript/bin/tsc');
/** Children run asynchronously once the stack is up: its services run in this process. */
const run = promisify(execFile);

/** The program a fresh project writes: compiled by tsc against the installed package, then run. */
const APP = `
import { readFile } from 'node:fs/promises';
import { createSignetClient, createTransaction, SignetError, unwrap, type Schemas } from '@signet/sdk';
import { parseSigningEvent, type SigningEvent } from '@signet/sdk/embed';

const signet = createSignetClient({ baseUrl: process.env.SIGNET_URL!, apiKey: process.env.SIGNET_KEY });
const pdf = new Blob([await readFile('contract.pdf')], { type: 'application/pdf' });
const face = new Blob([await readFile('face.png')], { type: 'image/png' });
const created = await createTransaction(signet, { signer_name: 'Ada Lovelace', signer_email: 'ada@example.com', document: pdf, reference: face });
const detail: Schemas['TransactionDetail'] = await unwrap(
  signet.GET('/api/transactions/{id}', { params: { path: { id: String(created.id) } } }),
);
let missing: { status: number; detail: string } | undefined;
try {
  await unwrap(signet.GET('/api/transactions/{id}', { params: { path: { id: '999999999' } } }));
} catch (err) {
  if (err instanceof SignetError) missing = { status: err.status, detail: err.detail };
}
const event: SigningEvent | undefined = parseSigningEvent({ source: 'signet', version: 1, type: 'ready' });
console.log(JSON.stringify({ created, detail, missing, event }));
`;

/** A type error the package's types must catch (a field that does not exist on the answer). */
const WRONG = `
import { createSignetClient, unwrap } from '@signet/sdk';
const signet = createSignetClient({ baseUrl: 'http://127.0.0.1' });
const d = await unwrap(signet.GET('/api/transactions/{id}', { params: { path: { id: '1' } } }));
console.log(d.no_such_field);
`;

/** `npm pack` of a directory into `dest`; the tarball's path. */
function pack(dir: string, dest: string, scripts = false): string {
  const args = ['pack', '--json', '--pack-destination', dest, ...(scripts ? [] : ['--ignore-scripts'])];
  const out = execFileSync('npm', args, { cwd: dir, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return join(dest, (JSON.parse(out) as { filename: string }[])[0]!.filename);
}

/**
 * `npm pack` of a package from the pnpm store, copied first: the store hard-links identical files
 * (openapi-typescript-helpers' three .d.ts are one inode), the tarball then holds them as links, and
 * npm install drops link entries — the copy makes them plain files again, as on the registry.
 */
function packFromStore(dir: string, dest: string): string {
  const copy = join(dest, `store-${basename(dir)}`);
  cpSync(dir, copy, { recursive: true, dereference: true });
  return pack(copy, dest);
}

/** Where a dependency of `fromDir` lives in the pnpm store (its real directory). */
const storeDir = (fromDir: string, name: string) =>
  dirname(realpathSync(createRequire(join(fromDir, 'package.json')).resolve(`${name}/package.json`)));

describe('the packed SDK in a fresh project', () => {
  let stack: Awaited<ReturnType<typeof startServices>>;
  let acct: Account;
  let testKey: string;
  const work = mkdtempSync(join(tmpdir(), 'signet-sdk-pack-'));
  const project = join(work, 'app');
  let packed: { name: string; version: string; dependencies: Record<string, string>; [k: string]: unknown };
  let files: string[];

  beforeAll(async () => {
    // The tarballs: the SDK (prepack builds dist/), openapi-fetch and its one dependency.
    const fetchDir = storeDir(SDK, 'openapi-fetch');
    const tarballs = {
      sdk: pack(SDK, work, true),
      fetch: packFromStore(fetchDir, work),
      helpers: packFromStore(storeDir(fetchDir, 'openapi-typescript-helpers'), work),
    };
    const listed = execFileSync('tar', ['-tzf', tarballs.sdk], { encoding: 'utf8' });
    files = listed.trim().split('\n').sort();
    packed = JSON.parse(execFileSync('tar', ['-xzOf', tarballs.sdk, 'package/package.json'], { encoding: 'utf8' }));

    execFileSync('mkdir', ['-p', project]);
    writeFileSync(
      join(project, 'package.json'),
      JSON.stringify({
        name: 'fresh-app',
        private: true,
        type: 'module',
        dependencies: {
          '@signet/sdk': `file:${tarballs.sdk}`,
          // Not the app's own dependencies: they stand in for the registry, so the install is offline.
          'openapi-fetch': `file:${tarballs.fetch}`,
          'openapi-typescript-helpers': `file:${tarballs.helpers}`,
        },
      }),
    );
    execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', '--ignore-scripts', '--cache', join(work, 'cache')], {
      cwd: project,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          target: 'ES2022',
          module: 'NodeNext',
          moduleResolution: 'NodeNext',
          strict: true,
          outDir: 'dist',
          lib: ['ES2023', 'DOM'],
          // Node's own types from the workspace: the environment, not the SDK.
          typeRoots: [join(ROOT, 'node_modules/@types')],
          types: ['node'],
        },
        include: ['src'],
      }),
    );
    execFileSync('mkdir', ['-p', join(project, 'src')]);
    writeFileSync(join(project, 'src/app.ts'), APP);
    writeFileSync(join(project, 'contract.pdf'), tinyPdf(randomUUID()));
    writeFileSync(join(project, 'face.png'), pngPhoto());

    stack = await startServices(['identity', 'billing', 'transaction', 'gateway'], {
      env: {
        REFERENCE_PREFIX: 'SDKPK',
        BUCKET_DOCUMENTS: `sdkpack-docs-${work.slice(-6).toLowerCase()}`,
        BUCKET_REFERENCES: `sdkpack-refs-${work.slice(-6).toLowerCase()}`,
        REFERENCE_FACE_CHECK: 'off',
      },
    });
    acct = await createAccount(stack.gatewayUrl, infra().MAILPIT_URL, { tag: 'sdkpack' });
    const auth = { token: acct.token };
    const csrf = (await send(stack.gatewayUrl, 'GET', '/api/admin/csrf', auth)).body.csrf as string;
    const key = await send(stack.gatewayUrl, 'POST', `/api/admin/api-keys?csrf=${encodeURIComponent(csrf)}`, {
      ...auth,
      json: { name: 'fresh app', mode: 'test' },
    });
    expect(key.status, key.text).toBe(201);
    testKey = key.body.key as string;
  }, 240_000);

  afterAll(async () => {
    await stack?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('packs only what it ships, with a version and no workspace-only dependency', () => {
    expect(files).toEqual(
      expect.arrayContaining([
        'package/CHANGELOG.md',
        'package/README.md',
        'package/package.json',
        'package/dist/index.js',
        'package/dist/index.d.ts',
        'package/dist/embed.js',
        'package/dist/embed.d.ts',
      ]),
    );
    expect(files.filter((f) => /\.test\.|\.map$|tsbuildinfo|\/src\//.test(f))).toEqual([]);
    expect(packed.name).toBe('@signet/sdk');
    expect(packed.version).toMatch(/^\d+\.\d+\.\d+$/);
    expect(packed.dependencies).toEqual({ 'openapi-fetch': '0.17.0' });
    expect(JSON.stringify(packed)).not.toMatch(/workspace:|link:|file:/);
    // The only condition besides types/default is the repository's own source condition, which no
    // consumer sets; every path a consumer can resolve is in the tarball.
    const exportsOf = packed.exports as Record<string, Record<string, string> | string>;
    for (const entry of Object.values(exportsOf)) {
      if (typeof entry === 'string') continue;
      expect(Object.keys(entry).sort()).toEqual(['@signet/source', 'default', 'types']);
      for (const cond of ['types', 'default']) expect(files).toContain(`package/${entry[cond]!.replace(/^\.\//, '')}`);
    }
    const changelog = readFileSync(join(project, 'node_modules/@signet/sdk/CHANGELOG.md'), 'utf8');
    expect(changelog).toContain(`## ${packed.version}`);
  });

  it('installs offline: one copy of openapi-fetch, and the Node entry does not load the browser one', () => {
    const installed = readdirSync(join(project, 'node_modules/@signet/sdk/dist'));
    expect(installed).toContain('index.js');
    expect(() => readdirSync(join(project, 'node_modules/@signet/sdk/node_modules'))).toThrow();
    const index = readFileSync(join(project, 'node_modules/@signet/sdk/dist/index.js'), 'utf8');
    expect(index).not.toMatch(/embed/);
    // The browser entry imports nothing: it can be served as it is.
    const embed = readFileSync(join(project, 'node_modules/@signet/sdk/dist/embed.js'), 'utf8');
    expect(embed).not.toMatch(/^\s*import\b/m);
  });

  it('type-checks a wrong field as an error, then compiles and runs a program that creates and reads a transaction', async () => {
    // One compile of both files: tsc still emits app.js when wrong.ts has its (expected) error.
    writeFileSync(join(project, 'src/wrong.ts'), WRONG);
    let errors = '';
    try {
      await run(process.execPath, [TSC, '-p', project], { cwd: project, encoding: 'utf8' });
    } catch (err) {
      errors = String((err as { stdout?: string }).stdout);
    }
    expect(errors).toMatch(/src\/wrong\.ts\(5,\d+\): error TS2339: .*no_such_field/);
    expect(errors.trim().split('\n')).toHaveLength(1);
    const { stdout: out } = await run(process.execPath, ['dist/app.js'], {
      cwd: project,
      encoding: 'utf8',
      timeout: 60_000,
      env: { PATH: process.env.PATH, SIGNET_URL: stack.gatewayUrl, SIGNET_KEY: testKey },
    });
    const r = JSON.parse(out);
    expect(r.created).toMatchObject({ status: 'created', test: true });
    expect(r.detail).toMatchObject({ id: r.created.id, reference: r.created.reference, status: 'created', test: true });
    expect(r.detail.signers[0]).toMatchObject({ name: 'Ada Lovelace', email: 'ada@example.com' });
    expect(r.missing).toMatchObject({ status: 404 });
    expect(r.event).toEqual({ type: 'ready' });
  }, 240_000);
});
