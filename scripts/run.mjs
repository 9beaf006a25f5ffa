#!/usr/bin/env node
// Entry point of `npm start` and `npm test` on a machine that has only Node and npm:
// finds pnpm (or runs the pinned version through npx), installs the workspace when its
// dependencies are missing or stale, then runs the matching pnpm script.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const command = process.argv[2];
const scripts = { start: 'system:start', test: 'system:test' };
if (!scripts[command]) {
  console.error(`usage: node scripts/run.mjs ${Object.keys(scripts).join('|')} [args…]`);
  process.exit(2);
}

const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager; // pnpm@x.y.z
const pinnedMajor = pinned.split('@')[1].split('.')[0];

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.trim().split('.')[0] === pinnedMajor) return ['pnpm'];
  return ['npx', '--yes', pinned];
}

function run(argv) {
  const [bin, ...args] = argv;
  const result = spawnSync(bin, args, { cwd: root, stdio: 'inherit', env: process.env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function installIsStale() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  if (!existsSync(marker)) return true;
  return statSync(join(root, 'pnpm-lock.yaml')).mtimeMs > statSync(marker).mtimeMs;
}

const pnpm = pnpmCommand();
if (installIsStale()) {
  const code = run([...pnpm, 'install', '--frozen-lockfile']);
  if (code !== 0) process.exit(code);
}
process.exit(run([...pnpm, 'run', scripts[command], ...process.argv.slice(3)]));
