#!/usr/bin/env node
// Entry point of `npm start`, `npm test` and every other root script (`npm run bench`,
// `node scripts/run.mjs postbus …`) on a machine that has only Node and npm: finds pnpm (or
// runs the pinned version through npx), installs the workspace when its dependencies are
// missing or stale, checks the machine's packages and servers the command needs, then runs the
// script that does the work (`system:<name>` or `x:<name>`) with the arguments given.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const command = process.argv[2];

/** The script doing the work of `name`: `system:<name>`, `x:<name>`, or `name` itself when it does not come back here. */
function targetOf(name) {
  const scripts = manifest.scripts ?? {};
  for (const candidate of [`system:${name}`, `x:${name}`]) if (scripts[candidate]) return candidate;
  if (scripts[name] && !scripts[name].includes('scripts/run.mjs')) return name;
  return undefined;
}

const target = command && targetOf(command);
if (!target) {
  const names = Object.keys(manifest.scripts ?? {}).filter((name) => !/^(system|x):/.test(name) && targetOf(name));
  console.error(`usage: node scripts/run.mjs ${names.join('|')} [args…]`);
  process.exit(2);
}

const pinned = manifest.packageManager; // pnpm@x.y.z
const pinnedMajor = pinned.split('@')[1].split('.')[0];

function pnpmCommand() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0 && probe.stdout.trim().split('.')[0] === pinnedMajor) return ['pnpm'];
  return ['npx', '--yes', pinned];
}

function run(argv, env = process.env) {
  const [bin, ...args] = argv;
  const result = spawnSync(bin, args, { cwd: root, stdio: 'inherit', env });
  if (result.error) throw result.error;
  return result.status ?? 1;
}

function installIsStale() {
  const marker = join(root, 'node_modules', '.modules.yaml');
  if (!existsSync(marker)) return true;
  return statSync(join(root, 'pnpm-lock.yaml')).mtimeMs > statSync(marker).mtimeMs;
}

/** Root on a machine with apt-get: the one case where a missing package is installed rather than named. */
function canAptInstall() {
  return process.getuid?.() === 0 && spawnSync('apt-get', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Installs Debian's `pkg` with apt-get (once; `apt-get update` first when the package lists are
 * too old to have it), or exits saying what to install where that is not ours to do.
 */
function ensureDebianPackage({ pkg, paths, purpose, advice }) {
  const absent = paths.filter((path) => !existsSync(path));
  if (!absent.length) return;
  if (!canAptInstall()) {
    console.error(`${absent.join(' and ')} ${absent.length > 1 ? 'are' : 'is'} missing (for ${purpose}). ${advice}`);
    process.exit(1);
  }
  console.log(`Installing Debian's ${pkg} for ${purpose} (once)…`);
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive' };
  const install = () =>
    spawnSync('apt-get', ['install', '-y', '--no-install-recommends', pkg], { stdio: 'inherit', env });
  let result = install();
  if (result.status !== 0) {
    spawnSync('apt-get', ['update'], { stdio: 'inherit', env });
    result = install();
  }
  if (result.status !== 0 || paths.some((path) => !existsSync(path))) {
    console.error(`Could not install ${pkg} with apt-get; install it and run the command again.`);
    process.exit(1);
  }
}

/** The browser tests drive Debian's Chromium (never a downloaded browser). */
function ensureChromium() {
  const path = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  ensureDebianPackage({
    pkg: 'chromium',
    paths: [path],
    purpose: 'the browser tests',
    advice: 'On Debian: sudo apt-get install chromium (or set CHROMIUM_PATH).',
  });
}

/** Media reads every stored file with ffprobe (and its tests make files with ffmpeg): Debian's ffmpeg package. */
function ensureFfmpeg() {
  const paths = [process.env.FFPROBE_PATH ?? '/usr/bin/ffprobe', process.env.FFMPEG_PATH ?? '/usr/bin/ffmpeg'];
  ensureDebianPackage({
    pkg: 'ffmpeg',
    paths,
    purpose: 'media probing',
    advice:
      'Debian/Ubuntu: sudo apt-get install ffmpeg. macOS: brew install ffmpeg, then set FFPROBE_PATH=$(brew --prefix)/bin/ffprobe and FFMPEG_PATH=$(brew --prefix)/bin/ffmpeg.',
  });
}

/** Debian's ffmpeg cannot read HEIC photos: media probes and the transcoder converts them with libheif's heif-convert. */
function ensureHeifConvert() {
  ensureDebianPackage({
    pkg: 'libheif-examples',
    paths: [process.env.HEIF_CONVERT_PATH ?? '/usr/bin/heif-convert'],
    purpose: 'HEIC photos',
    advice:
      'Debian/Ubuntu: sudo apt-get install libheif-examples. macOS: brew install libheif, then set HEIF_CONVERT_PATH=$(brew --prefix)/bin/heif-convert.',
  });
}

/** Bluesky's reference AppView (tests/atproto) keeps its cache in a Redis it starts itself: Debian's redis-server. */
function ensureRedis() {
  if (spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0) return;
  ensureDebianPackage({
    pkg: 'redis-server',
    paths: ['/usr/bin/redis-server'],
    purpose: "the tests against Bluesky's reference AppView",
    advice: 'Debian/Ubuntu: sudo apt-get install redis-server. macOS: brew install redis.',
  });
}

/**
 * PostgreSQL and RabbitMQ for `start` and `test`: the configured ones when they answer, else
 * brought up with Docker or as private servers under .data/ (scripts/servers.ts); answers the
 * variables that point the command at them, or exits having said what to install.
 */
function ensureServers(purpose) {
  const tsx = join(root, 'node_modules', '.bin', 'tsx');
  const result = spawnSync(tsx, ['scripts/servers.ts', 'up', '--for', purpose], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
    encoding: 'utf8',
    env: process.env,
  });
  if (result.error) throw result.error;
  if (result.status !== 0) process.exit(result.status ?? 1);
  return JSON.parse(result.stdout);
}

const pnpm = pnpmCommand();
if (command === 'test') {
  ensureChromium();
  ensureRedis();
}
if (command === 'start' || command === 'test') {
  ensureFfmpeg();
  ensureHeifConvert();
}
if (installIsStale()) {
  const code = run([...pnpm, 'install', '--frozen-lockfile']);
  if (code !== 0) process.exit(code);
}
// When this command began (epoch ms), for start's "ready in …" and first-post figures.
const env = {
  ...process.env,
  POSTBUS_STARTED_AT: process.env.POSTBUS_STARTED_AT ?? String(Math.round(performance.timeOrigin)),
};
if (command === 'start' || command === 'test') Object.assign(env, ensureServers(command));
process.exit(run([...pnpm, 'run', target, ...process.argv.slice(3)], env));
