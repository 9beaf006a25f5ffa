/**
 * `pnpm bench`: runs every bench/*.bench.ts in turn (each is also runnable alone with
 * `npx tsx bench/<name>.bench.ts`), then prints one table with every figure they measured
 * (bench/support/figures.ts) against its target. Pass names to run a subset.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Figure } from './support/figures';
import { printFigureTable } from './support/figure-table';

const only = process.argv.slice(2);
const files = readdirSync(__dirname)
  .filter((f) => f.endsWith('.bench.ts'))
  .filter((f) => !only.length || only.some((o) => f.includes(o)))
  .sort();
const dir = mkdtempSync(join(tmpdir(), 'postbus-bench-'));
const figuresFile = join(dir, 'figures.jsonl');
const failedBenches: string[] = [];
for (const f of files) {
  console.log(`\n=== ${f.replace('.bench.ts', '')} ===`);
  const r = spawnSync(process.execPath, ['--import', 'tsx', join(__dirname, f)], {
    stdio: 'inherit',
    env: { ...process.env, BENCH_FIGURES_FILE: figuresFile },
  });
  if (r.status !== 0) failedBenches.push(f.replace('.bench.ts', ''));
}
let figures: Figure[] = [];
try {
  figures = readFileSync(figuresFile, 'utf8')
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Figure);
} catch {
  // no bench recorded anything
}
rmSync(dir, { recursive: true, force: true });
printFigureTable(figures, failedBenches);
process.exit(failedBenches.length ? 1 : 0);
