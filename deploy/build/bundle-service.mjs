#!/usr/bin/env node
/**
 * Builds the runnable folder of one service, as the image's build stage does:
 *
 *   node deploy/build/bundle-service.mjs <service> <out-dir>
 *
 * 1. `pnpm deploy --prod`: the service with its production dependencies only; the workspace
 *    libraries it uses are copied in (not linked), nothing else of the repository comes along.
 * 2. Every TypeScript file of the service and of those libraries becomes JavaScript beside it,
 *    compiled by swc with the options the tests run under (jest.config.js), with source maps;
 *    the .ts files and test folders are removed.
 * 3. Each package.json `main`/`types` is pointed at the .js file.
 *
 * Then `node --enable-source-maps src/main.js` in <out-dir> runs the service: no TypeScript
 * loader, no dev dependency at run time.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import {
  existsSync,
  readFileSync,
  readdirSync,
  realpathSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');
const require = createRequire(join(root, 'package.json'));
const swc = require('@swc/core');

/** The transform of jest.config.js, so the image runs the code exactly as the tests did. */
const SWC_OPTIONS = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true },
    target: 'es2022',
  },
  module: { type: 'commonjs' },
  sourceMaps: true,
};

function fail(message) {
  console.error(`bundle-service: ${message}`);
  process.exit(1);
}

/**
 * Writes a file as a new inode. pnpm deploy hard-links the workspace's own files into the
 * bundle: writing through such a link would change the repository's file too.
 */
function replaceFile(path, content) {
  const fresh = `${path}.bundle-tmp`;
  rmSync(fresh, { force: true });
  writeFileSync(fresh, content);
  renameSync(fresh, path);
}

function pnpm() {
  const probe = spawnSync('pnpm', ['--version'], { encoding: 'utf8' });
  if (probe.status === 0) return ['pnpm'];
  const pinned = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).packageManager;
  return ['npx', '--yes', pinned];
}

function walk(dir, visit) {
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules') continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) walk(path, visit);
    else visit(path);
  }
}

/** The folders of our own packages in the bundle: the service and every @postbus library copied in. */
function ownPackages(out) {
  const found = new Set([out]);
  const store = join(out, 'node_modules', '.pnpm');
  if (existsSync(store)) {
    for (const entry of readdirSync(store)) {
      const scope = join(store, entry, 'node_modules', '@postbus');
      if (!existsSync(scope)) continue;
      for (const name of readdirSync(scope)) found.add(realpathSync(join(scope, name)));
    }
  }
  return [...found].filter((dir) => realpathSync(dir).startsWith(realpathSync(out)));
}

async function compilePackage(dir) {
  for (const extra of ['test', 'tsconfig.json']) rmSync(join(dir, extra), { recursive: true, force: true });
  const files = [];
  walk(dir, (path) => {
    if (path.endsWith('.ts') && !path.endsWith('.d.ts')) files.push(path);
  });
  for (const file of files) {
    const { code, map } = await swc.transformFile(file, {
      ...SWC_OPTIONS,
      filename: file,
      sourceFileName: relative(dirname(file), file),
    });
    const js = file.replace(/\.ts$/, '.js');
    replaceFile(js, `${code}\n//# sourceMappingURL=${relative(dirname(js), `${js}.map`)}\n`);
    replaceFile(`${js}.map`, map);
    rmSync(file); // unlinks the bundle's name only
  }
  const manifestPath = join(dir, 'package.json');
  const manifest = JSON.parse(readFileSync(manifestPath, 'utf8'));
  for (const key of ['main', 'types'])
    if (typeof manifest[key] === 'string') manifest[key] = manifest[key].replace(/\.ts$/, '.js');
  delete manifest.devDependencies;
  replaceFile(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
  return files.length;
}

async function main() {
  const [service, outArg] = process.argv.slice(2);
  if (!service || !outArg) fail('usage: node deploy/build/bundle-service.mjs <service> <out-dir>');
  const manifest = join(root, 'services', service, 'package.json');
  if (!existsSync(manifest)) fail(`no service "${service}" (services/${service}/package.json is missing)`);
  const name = JSON.parse(readFileSync(manifest, 'utf8')).name;
  const out = resolve(outArg);
  if (existsSync(out) && readdirSync(out).length) fail(`${out} is not empty`);

  const [bin, ...pre] = pnpm();
  execFileSync(bin, [...pre, '--filter', name, 'deploy', '--prod', '--legacy', '--prefer-offline', out], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  let compiled = 0;
  for (const dir of ownPackages(out)) compiled += await compilePackage(dir);
  if (!existsSync(join(out, 'src', 'main.js'))) fail(`${service} has no src/main.ts`);
  console.log(`bundled ${name} into ${out} (${compiled} files compiled)`);
}

main().catch((err) => fail(err.stack ?? String(err)));
