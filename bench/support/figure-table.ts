import type { Figure } from './figures';

const number = (v: number) => (Number.isInteger(v) ? String(v) : Math.abs(v) < 10 ? v.toFixed(2) : v.toFixed(1));
const cell = (f: Figure) => `${typeof f.value === 'number' ? number(f.value) : f.value}${f.unit ? ` ${f.unit}` : ''}`;
const verdict = (f: Figure) => (f.met === undefined ? '' : f.met ? 'met' : 'MISSED');

/** The final table of `pnpm bench`: every figure under its section, its target and whether it is met. */
export function printFigureTable(figures: Figure[], failedBenches: string[]): void {
  const rows = figures.map((f) => [f.name, cell(f), f.target ?? '', verdict(f)]);
  const widths = [0, 1, 2, 3].map((i) =>
    Math.max(...rows.map((r) => r[i].length), ['figure', 'value', 'target', ''][i].length),
  );
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const row = (r: string[]) => `| ${r.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  console.log('\n=== figures ===');
  console.log(rule);
  console.log(row(['figure', 'value', 'target', '']));
  let section = '';
  figures.forEach((f, i) => {
    if (f.section !== section) {
      section = f.section;
      console.log(rule);
      console.log(`| ${section.padEnd(rule.length - 4)} |`);
    }
    console.log(row(rows[i]));
  });
  console.log(rule);
  const missed = figures.filter((f) => f.met === false).length;
  console.log(
    `${figures.length} figures, ${figures.filter((f) => f.met).length} targets met, ${missed} missed${failedBenches.length ? `; benches that exited non-zero (a target missed, or an error above): ${failedBenches.join(', ')}` : ''}`,
  );
}
