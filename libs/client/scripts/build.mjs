#!/usr/bin/env node
// Builds the package into dist/: index.mjs (ES module), index.cjs (CommonJS), and their type
// declarations index.d.mts / index.d.cts, which share schema.d.ts (the types of every path).
// TypeScript compiles twice, once per module format; the source has one runtime module, so no
// bundler is needed, and the files are renamed to the extensions Node and TypeScript read the
// format from, whatever the "type" of the package that installs them.
import { spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, renameSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const pkg = join(dirname(fileURLToPath(import.meta.url)), '..');
const dist = join(pkg, 'dist');
const tsc = createRequire(import.meta.url).resolve('typescript/bin/tsc');

function compile(config) {
  const r = spawnSync(process.execPath, [tsc, '-p', join(pkg, config)], { cwd: pkg, stdio: 'inherit' });
  if (r.status !== 0) process.exit(r.status ?? 1);
}

rmSync(dist, { recursive: true, force: true });
compile('tsconfig.build.json');
compile('tsconfig.cjs.json');
mkdirSync(dist, { recursive: true });
renameSync(join(dist, 'esm', 'index.js'), join(dist, 'index.mjs'));
renameSync(join(dist, 'cjs', 'index.js'), join(dist, 'index.cjs'));
copyFileSync(join(dist, 'esm', 'index.d.ts'), join(dist, 'index.d.cts'));
renameSync(join(dist, 'esm', 'index.d.ts'), join(dist, 'index.d.mts'));
renameSync(join(dist, 'esm', 'schema.d.ts'), join(dist, 'schema.d.ts'));
rmSync(join(dist, 'esm'), { recursive: true });
rmSync(join(dist, 'cjs'), { recursive: true });
console.log('built dist/index.mjs, dist/index.cjs, dist/index.d.mts, dist/index.d.cts, dist/schema.d.ts');
