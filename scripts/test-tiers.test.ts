import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 14, test tiers: end-to-end and browser tests go through the gateway's public HTTP API and the
// public events only. They import no service's src/ (the harness starts the services; the capture corpus
// is their one door to the renderer) and open no database or bucket connection.
const root = join(import.meta.dirname, '..');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );

/** The import specifiers of a module (static, dynamic and re-exports). */
export const specifiers = (text: string) =>
  [...text.matchAll(/(?:\bfrom\s+|\bimport\s*\(\s*|\bimport\s+)['"]([^'"]+)['"]/g)].map((m) => m[1]!);

const serviceSrc = /(^|\/)services\/[^/]+\/src\//;
const storeClients = /\b(connectMongo|createS3|new MongoClient|new Minio\.Client|new S3Client)\b/;

describe('the e2e and browser tiers', () => {
  const e2e = files(join(root, 'test/e2e'));

  it('finds the test files it checks', () => {
    expect(e2e.length).toBeGreaterThan(20);
  });

  it('import nothing from a service’s src/', () => {
    const offenders = e2e.flatMap((f) =>
      specifiers(readFileSync(f, 'utf8'))
        .filter((s) => serviceSrc.test(s))
        .map((s) => `${relative(root, f)}: ${s}`),
    );
    expect(offenders).toEqual([]);
  });

  it('open no database or bucket connection', () => {
    const offenders = e2e.filter((f) => storeClients.test(readFileSync(f, 'utf8'))).map((f) => relative(root, f));
    expect(offenders).toEqual([]);
  });

  it('the check sees the imports it is meant to refuse', () => {
    const text = [
      "import { x } from '../../services/ceremony/src/domain/challenge.js';",
      "const m = await import('../../../services/biometrics/src/analysis/models.js');",
      "export { y } from '../../services/ledger/src/domain/merkle.js';",
      "import { z } from '../../services/biometrics/test/corpus/make-corpus.js';",
    ].join('\n');
    expect(specifiers(text).filter((s) => serviceSrc.test(s))).toHaveLength(3);
    expect(storeClients.test('const conn = await connectMongo(url, db);')).toBe(true);
  });
});
