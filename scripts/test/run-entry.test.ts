import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');
const scripts = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).scripts as Record<string, string>;
/** The documented commands: each works as `npm run <name>` on a machine whose pnpm is not the pinned one. */
const DOCUMENTED = ['typecheck', 'postbus', 'bench', 'test:faults', 'gen:client', 'servers'];

test('when a documented command is run through npm, then it goes through scripts/run.mjs to a script of its own', () => {
  for (const name of DOCUMENTED) {
    expect(scripts[name]).toBe(`node scripts/run.mjs ${name}`);
    expect(scripts[`x:${name}`] ?? scripts[`system:${name}`]).toBeDefined();
  }
  expect(scripts.start).toBe('node scripts/run.mjs start');
  expect(scripts.test).toBe('node scripts/run.mjs test');
});

test('when scripts/run.mjs is given a name that is no root script, then it exits 2 listing the names it takes', () => {
  const run = spawnSync(process.execPath, ['scripts/run.mjs', 'no-such-script'], { cwd: ROOT, encoding: 'utf8' });
  expect(run.status).toBe(2);
  for (const name of ['start', 'test', ...DOCUMENTED]) expect(run.stderr).toContain(name);
  expect(run.stderr).not.toMatch(/\bx:|system:/);
});

test('when scripts/run.mjs is given a root script name, then it runs the script doing the work with the arguments given', () => {
  const run = spawnSync(process.execPath, ['scripts/run.mjs', 'servers', 'no-such-command'], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 120_000,
  });
  // scripts/servers.ts answered, with the argument passed on
  expect(run.stderr).toContain('usage: servers up --for start|test | status | stop');
  expect(run.status).not.toBe(0);
}, 130_000);
