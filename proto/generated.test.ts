import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';

describe('generated protobuf code', () => {
  it('is up to date with proto/signet/**/*.proto (run `pnpm gen` when this fails)', () => {
    const root = join(import.meta.dirname, '..');
    let out = '';
    try {
      out = execFileSync(process.execPath, [join(root, 'scripts/gen-proto.mjs'), '--check'], {
        cwd: root,
        encoding: 'utf8',
        stdio: 'pipe',
      });
    } catch (err) {
      const e = err as { stderr?: string; stdout?: string };
      throw new Error(`${e.stderr ?? ''}${e.stdout ?? ''}`);
    }
    expect(out).toContain('up to date');
  }, 60_000);
});
