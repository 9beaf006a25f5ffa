import { appendFileSync } from 'node:fs';

/** One measured figure of a benchmark, as the final table of `pnpm bench` shows it. */
export interface Figure {
  /** The table's section, e.g. `POST /api/v1/posts`. */
  section: string;
  name: string;
  value: number | string;
  unit?: string;
  /** The target in words (`≥ 0.25`), shown beside the value. */
  target?: string;
  /** Whether the target is met; absent for figures without one. */
  met?: boolean;
}

/**
 * Hands figures to `pnpm bench` (bench/run.ts), which prints them all in one table at the end:
 * they go as JSON lines to the file named by BENCH_FIGURES_FILE. A bench run alone just prints.
 */
export function recordFigures(figures: Figure[]): void {
  const file = process.env.BENCH_FIGURES_FILE;
  if (!file) return;
  appendFileSync(file, figures.map((f) => `${JSON.stringify(f)}\n`).join(''));
}
