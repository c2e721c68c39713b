import js from '@eslint/js';
import { readdirSync } from 'node:fs';
import tseslint from 'typescript-eslint';

// ---- Layout inside a service (../shared/STYLE.md) -------------------------------------------------------------------
// Enforced with built-in rules only; files globs pick the layer, import strings are matched as written.
// scripts/eslint-layers.test.ts lints wrong and allowed snippets against these rules.

const SERVICE_SRC = '{services,packages}/*/src/**/*.{ts,tsx,mts,cts,js,mjs,cjs}';
// Unit tests beside the code wire fakes and fixtures across layers and may read the environment.
const EXEMPT = ['**/*.test.ts', '**/*.test.tsx'];

// Every service folder under services/ (the shared packages live under packages/ and are reached by package name).
const serviceDirs = readdirSync(new URL('./services/', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const servicePackages = serviceDirs;
const alternation = (names) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|');

/** Reaching into another service: by a relative path out of this one, or by its package name. */
const crossService = [
  {
    regex: `^(\\.\\./)+(services/|packages/)?(${alternation([...serviceDirs, 'kit', 'web', 'verify', 'sdk'])})/`,
    message: "Another service's code is off limits: use its generated client from @signet/proto, or @signet/kit.",
  },
  {
    regex: `^@signet/(${alternation(servicePackages)})(/|$)`,
    message: "Another service's code is off limits: use its generated client from @signet/proto, or @signet/kit.",
  },
];
/** `import { env } from 'node:process'` is process.env under another name (see no-restricted-properties below). */
const envImports = ['process', 'node:process'].map((name) => ({
  name,
  importNames: ['env'],
  message: "Read the environment only in the service's src/config.ts (its zod schema), and pass values in.",
}));

// A folder (`../store/x.js`) or a root module (`../metrics.js`) of the service, however deep the importing file sits.
const layer = (names) => `^(\\.\\./)+(${names.join('|')})(/|(\\.[cm]?[jt]sx?)?$)`;
const ioModules =
  '^(@grpc|@aws-sdk|@opentelemetry)/|' +
  '^(mongoose|mongodb|nats|ioredis|redis|minio|express|busboy|nodemailer|prom-client|pino|grpc-health-check|rate-limiter-flexible)(/|$)';
const nodeIo = '^(node:)?(fs|fs/promises|child_process|net|http|https|http2|dgram|dns|dns/promises|tls|cluster|worker_threads)$';

const domainOutward = {
  regex: layer(['store', 'grpc', 'events', 'usecases', 'jobs', 'metrics', 'server', 'app', 'main']),
  message: 'domain/ is pure logic: it imports nothing from store/, grpc/, events/, usecases/, jobs/ or the wiring.',
};
const domainIo = {
  regex: ioModules,
  message: 'domain/ is pure logic: no I/O library (database, transport, broker, storage, HTTP, metrics, logging).',
};
const domainNodeIo = { regex: nodeIo, message: 'domain/ is pure logic: no file, process or network I/O from Node.' };

/** Per folder: the import patterns it may not use, on top of crossService. */
const layers = {
  domain: [domainOutward, domainIo, domainNodeIo],
  grpc: [{ regex: layer(['events']), message: 'grpc/ handlers call use cases; they do not reach into events/.' }],
  events: [{ regex: layer(['grpc']), message: 'events/ consumers and publishers call use cases; they do not reach into grpc/.' }],
  usecases: [
    { regex: layer(['grpc']), message: 'Use cases are transport-free: grpc/ calls them, not the other way round.' },
    {
      // The outbox builders in events/*.publisher.ts are pure functions a use case writes in its transaction.
      regex: '^(\\.\\./)+events(/(?!.*\\.publisher(\\.[cm]?[jt]s)?$)|(\\.[cm]?[jt]s)?$)',
      message: 'Use cases may import only the outbox builders in events/*.publisher.ts, not consumers or other event code.',
    },
  ],
};
const restrictImports = (patterns) => ['error', { paths: envImports, patterns: [...crossService, ...patterns] }];

const serviceLayout = [
  {
    files: [SERVICE_SRC],
    ignores: EXEMPT,
    rules: { 'no-restricted-imports': restrictImports([]) },
  },
  ...Object.entries(layers).map(([folder, patterns]) => ({
    files: [`services/*/src/${folder}/**/*.{ts,tsx,mts,cts,js,mjs,cjs}`],
    ignores: EXEMPT,
    rules: { 'no-restricted-imports': restrictImports(patterns) },
  })),
  {
    // import() and require() would get round the import patterns above; pure logic has no use for either.
    files: ['services/*/src/domain/**/*.{ts,tsx,mts,cts,js,mjs,cjs}'],
    ignores: EXEMPT,
    rules: {
      'no-restricted-syntax': [
        'error',
        { selector: 'ImportExpression', message: 'domain/ is pure logic: no dynamic import().' },
        { selector: "CallExpression[callee.name='require']", message: 'domain/ is pure logic: no require().' },
      ],
    },
  },
  {
    // Known exception: readHead and probeVideo open the upload and run ffprobe from domain/ (file and process I/O).
    // They belong behind a port the use case is given; until they move, only Node's I/O is allowed here.
    files: ['services/ceremony/src/domain/media.ts'],
    rules: { 'no-restricted-imports': restrictImports([domainOutward, domainIo]) },
  },
  {
    files: [SERVICE_SRC],
    ignores: [...EXEMPT, '{services,packages}/*/src/config.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: "Read the environment only in the service's src/config.ts (its zod schema), and pass values in.",
        },
      ],
    },
  },
];

export default tseslint.config(
  {
    ignores: [
      '**/dist/**',
      '**/node_modules/**',
      'proto/src/**',
      '.data/**',
      'coverage/**',
      'charts/**',
      'test-artifacts/**',
      '**/*.min.js',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      'no-console': 'off',
    },
  },
  ...serviceLayout,
);
