/**
 * A focused evaluation of the short flashes (issue 30, light-flash.ts), printed as a dated markdown
 * section for docs/biometrics-evaluation.md (kept in eval/results/short-flashes.md, which evaluate.ts prints):
 *
 *   node --conditions=@signet/source --import tsx eval/flash-attacks.ts <dir> [first] [count]
 *
 * For the draws genuine-set/first … first+count−1 of the evaluation's genuine set (its people in
 * turn, its seeds; each draw has its flash segment), it renders and analyses, as the service does
 * (words not checked: no recogniser):
 *
 * - genuine: the person follows the draw, flashes included, lit as physics gives it;
 * - flashes ignored: the same puppet following every once-a-second colour but holding the flash
 *   segment's first colour through the flashes;
 * - late: the same puppet following everything, flashes included, FLASH_LATE_S later than the
 *   screen's light reaches a face (a puppet rendered after each reveal).
 *
 * The split: the flash check's thresholds (analysisConfig.flash) were set on the unit tests'
 * synthetic responses and test/light.int.test.ts's person A on its own sequence, never on these
 * draws. Rendered files are kept in <dir> and rendered again only when missing; progress to stderr.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import path from 'node:path';
import { planBackend } from '../src/analysis/backend.js';
import { analysisConfig } from '../src/analysis/config.js';
import { loadModels, type LoadedModels } from '../src/analysis/models.js';
import { analyzeCase, FLASH_LATE_S, makeGenuineSet, type CorpusCase } from '../test/corpus/make-corpus.js';

const [dirArg, firstArg, countArg] = process.argv.slice(2);
if (!dirArg) throw new Error('usage: flash-attacks.ts <dir> [first] [count]');
const dir = path.resolve(dirArg);
const first = Number(firstArg ?? 0);
const count = Number(countArg ?? 4);
const SET_N = 36; // the evaluation's set size: people are chosen as for it
const log = (s: string) => process.stderr.write(`[${new Date().toISOString().slice(11, 19)}] ${s}\n`);
const CLASSES = ['genuine', 'flashes ignored', 'late'] as const;
type Cls = (typeof CLASSES)[number];

interface Row {
  cls: Cls;
  name: string;
  outcome: string;
  failed: string[];
  light: boolean | null;
  flash: { passed: boolean; reason: string | null } | null;
  corr: number | null;
  lagMs: number | null;
  higher: number | null;
  ms: number;
}

const num = (detail: string | undefined, re: RegExp) => {
  const m = detail ? re.exec(detail) : null;
  return m ? Number(m[1]) : null;
};

async function casesOf(m: LoadedModels, k: number): Promise<{ cls: Cls; c: CorpusCase }[]> {
  const manifest = path.join(dir, `flash-draw-${k}.json`);
  if (existsSync(manifest)) {
    const known = JSON.parse(readFileSync(manifest, 'utf8')) as { cls: Cls; c: CorpusCase }[];
    if (known.every((x) => existsSync(path.join(dir, x.c.video)))) return known;
  }
  const one = async (flashPuppet?: 'ignored' | 'late') =>
    (await makeGenuineSet(dir, SET_N, { models: m, only: [k], log, flashPuppet })).cases[0]!;
  const out = [
    { cls: 'genuine' as const, c: await one() },
    { cls: 'flashes ignored' as const, c: await one('ignored') },
    { cls: 'late' as const, c: await one('late') },
  ];
  writeFileSync(manifest, JSON.stringify(out, null, 2));
  return out;
}

mkdirSync(dir, { recursive: true });
const t0 = performance.now();
const loadStart = loadavg();
const plan = planBackend('auto', 0, { env: process.env });
const m = await loadModels({ backend: plan.backend, workers: 0, supportingModels: false });
const rows: Row[] = [];
for (let k = first; k < first + count; k++) {
  for (const { cls, c } of await casesOf(m, k)) {
    const t = performance.now();
    const r = await analyzeCase(m, dir, c, 900_000, null);
    const ms = performance.now() - t;
    const l = r.checks.light;
    rows.push({
      cls,
      name: c.name,
      outcome: r.outcome,
      failed: r.failed_checks,
      light: l.passed,
      flash: r.flash,
      corr: num(l.detail, /flashes: correlation ([-\d.]+)/),
      lagMs: num(l.detail, /flashes: correlation [-\d.]+ \(min [\d.]+\) at lag (-?\d+) ms/),
      higher: num(l.detail, /; (\d+) of \d+ other flash sequences/),
      ms,
    });
    log(`${cls} ${c.name}: ${r.outcome} ${r.failed_checks.join(',')}; ${l.detail ?? ''} (${(ms / 1000).toFixed(1)} s)`);
  }
}
writeFileSync(path.join(dir, `flash-rows-${first}-${count}.json`), JSON.stringify(rows, null, 2));
await m.close();

const f = (x: number | null | undefined, d = 3) => (x === null || x === undefined || Number.isNaN(x) ? '–' : x.toFixed(d));
const dist = (xs: (number | null)[], d = 3) => {
  const v = xs.filter((x): x is number => x !== null).sort((a, b) => a - b);
  return v.length ? `${f(v[0], d)} / ${f(v[Math.floor((v.length - 1) / 2)], d)} / ${f(v.at(-1), d)}` : '–';
};
const of = (cls: Cls) => rows.filter((r) => r.cls === cls);
const fc = analysisConfig.flash;
const p: string[] = [];
const out = (s = '') => p.push(s);
const day = new Date().toISOString().slice(0, 10);
out(`### Short flashes: focused evaluation (${day})`);
out();
out(
  `Made by \`node --conditions=@signet/source --import tsx eval/flash-attacks.ts <dir> ${first} ${count}\` (services/biometrics) ` +
    `on the draws genuine-set/${first}…${first + count - 1} (their people in turn), analysed as the service analyses them on ` +
    `\`${plan.backend}\` (words not checked). Load average ${loadStart.map((x) => x.toFixed(2)).join(' ')} at the start; ` +
    `${((performance.now() - t0) / 60000).toFixed(0)} min. Thresholds (correlation ≥ ${fc.minCorr}, at most ${fc.maxRank * 100} % of the other ` +
    `flash sequences as high, lag ${fc.lagMinS * 1000}…${fc.lagMaxS * 1000} ms) were set on the unit tests' synthetic responses and ` +
    `test/light.int.test.ts's person A only. The late puppet answers ${FLASH_LATE_S * 1000} ms after the renderer's 100 ms display and camera delay.`,
);
out();
out(
  '| class | captures | verdict FAIL | light failed | flash check failed (reasons) | flash correlation (min / median / max) | flash lag, ms | other sequences as high |',
);
out('|---|---|---|---|---|---|---|---|');
for (const cls of CLASSES) {
  const rs = of(cls);
  const reasons = [...new Set(rs.flatMap((r) => (r.flash && !r.flash.passed ? [r.flash.reason ?? '?'] : [])))].join(', ');
  out(
    `| ${cls} | ${rs.length} | ${rs.filter((r) => r.outcome === 'FAIL').length} | ${rs.filter((r) => r.light === false).length} | ` +
      `${rs.filter((r) => r.flash && !r.flash.passed).length}${reasons ? ` (${reasons})` : ''} | ${dist(rs.map((r) => r.corr))} | ` +
      `${dist(
        rs.map((r) => r.lagMs),
        0,
      )} | ${dist(
        rs.map((r) => r.higher),
        0,
      )} |`,
  );
}
out();
out('Per capture:');
out();
out('| capture | class | verdict | failed checks | flash | correlation | lag, ms |');
out('|---|---|---|---|---|---|---|');
for (const r of rows)
  out(
    `| ${r.name} | ${r.cls} | ${r.outcome} | ${r.failed.join(', ') || '–'} | ${r.flash ? (r.flash.passed ? 'pass' : r.flash.reason) : '–'} | ${f(r.corr)} | ${f(r.lagMs, 0)} |`,
  );
process.stdout.write(p.join('\n') + '\n');
process.exit(0);
