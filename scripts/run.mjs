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

/**
 * The browser tests drive Debian's Chromium (never a downloaded browser). Where it is missing
 * and this is a Debian machine we may administer (root), it is installed once; elsewhere the
 * command says what to install instead of failing test by test.
 */
function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (existsSync(path)) return;
  const canInstall = process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
  if (!canInstall) {
    console.error(`The browser tests need Chromium at ${path}. On Debian: sudo apt-get install chromium (or set CHROMIUM_PATH).`);
    process.exit(1);
  }
  console.log('Installing Debian\'s chromium for the browser tests (once)…');
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  let result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  if (result.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    result = spawnSync('apt-get', ['install', '-y', '--no-install-recommends', 'chromium'], { stdio: 'inherit', env });
  }
  if (result.status !== 0 || !existsSync(path)) {
    console.error('Could not install chromium with apt-get; install it and run the tests again.');
    process.exit(1);
  }
}

const pnpm = pnpmCommand();
if (command === 'test') ensureChromium();
if (installIsStale()) {
  const code = run([...pnpm, 'install', '--frozen-lockfile']);
  if (code !== 0) process.exit(code);
}
process.exit(run([...pnpm, 'run', scripts[command], ...process.argv.slice(3)]));
