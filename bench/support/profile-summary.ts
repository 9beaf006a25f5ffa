/**
 * Reads a V8 CPU profile (`node --cpu-prof`, e.g. from `BENCH_PROFILE=gateway,posts pnpm bench api`)
 * and prints where the time went: the functions with the most self time, and self time by package.
 *
 *   npx tsx bench/support/profile-summary.ts bench/profiles/posts-….cpuprofile [top]
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  hitCount: number;
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
}

function packageOf(url: string): string {
  if (!url) return '(native)';
  const pnpm = /node_modules\/\.pnpm\/[^/]+\/node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (pnpm) return pnpm[1];
  const nm = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (nm) return nm[1];
  const own = /\/(libs|services)\/([^/]+)\//.exec(url);
  if (own) return `${own[1]}/${own[2]}`;
  return url.startsWith('node:') ? url : url.replace(/^.*\//, '');
}

const [file, topArg] = process.argv.slice(2);
if (!file) {
  console.error('usage: profile-summary.ts <file.cpuprofile> [top]');
  process.exit(2);
}
const top = Number(topArg ?? 25);
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
const total = profile.nodes.reduce((n, node) => n + node.hitCount, 0);
const byFunction = new Map<string, number>();
const byPackage = new Map<string, number>();
for (const node of profile.nodes) {
  const { functionName, url, lineNumber } = node.callFrame;
  const key = `${functionName || '(anonymous)'}  ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(libs|services)\//, '$1/')}:${lineNumber + 1}`;
  byFunction.set(key, (byFunction.get(key) ?? 0) + node.hitCount);
  byPackage.set(packageOf(url), (byPackage.get(packageOf(url)) ?? 0) + node.hitCount);
}
// Inclusive time: each node's subtree, credited once per function on a path (recursion is not counted twice).
const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
const keyOf = (n: ProfileNode) =>
  `${n.callFrame.functionName || '(anonymous)'}  ${n.callFrame.url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*\/(libs|services)\//, '$1/')}:${n.callFrame.lineNumber + 1}`;
const inclusive = new Map<string, number>();
const childIds = new Set(profile.nodes.flatMap((n) => n.children ?? []));
const walk = (id: number, onPath: Set<string>): number => {
  const node = nodes.get(id)!;
  const key = keyOf(node);
  const fresh = !onPath.has(key);
  if (fresh) onPath.add(key);
  let hits = node.hitCount;
  for (const c of node.children ?? []) hits += walk(c, onPath);
  if (fresh) {
    onPath.delete(key);
    inclusive.set(key, (inclusive.get(key) ?? 0) + hits);
  }
  return hits;
};
for (const n of profile.nodes) if (!childIds.has(n.id)) walk(n.id, new Set());
const idle = byFunction.get([...byFunction.keys()].find((k) => k.startsWith('(idle)')) ?? '') ?? 0;

const pct = (n: number) => `${((n / total) * 100).toFixed(1).padStart(5)} %`;
console.log(`${file}: ${total} samples over ${((profile.endTime - profile.startTime) / 1e6).toFixed(1)} s`);
console.log('\nself time by package');
for (const [k, n] of [...byPackage].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(n)}  ${k}`);
console.log('\nself time by function');
for (const [k, n] of [...byFunction].sort((a, b) => b[1] - a[1]).slice(0, top)) console.log(`  ${pct(n)}  ${k}`);
console.log(`\ninclusive time by function (busy samples only: ${total - idle})`);
for (const [k, n] of [...inclusive]
  .filter(([k]) => !k.startsWith('(root)') && !k.startsWith('(idle)'))
  .sort((a, b) => b[1] - a[1])
  .slice(0, top * 2))
  console.log(`  ${((n / (total - idle)) * 100).toFixed(1).padStart(5)} %  ${k}`);
