import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createTestEnv, startSystem, type RunningSystem, type TestEnv } from '@postbus/testing';

/**
 * The official MCP conformance suite (tests/conformance pins it, with the Node.js 22 it needs)
 * against the running system, at the 2025-11-25 revision.
 */
const SUITE = join(__dirname, '../../../tests/conformance/node_modules');
const NODE = join(SUITE, 'node/bin/node');
const CLI = join(SUITE, '@modelcontextprotocol/conformance', JSON.parse(readFileSync(join(SUITE, '@modelcontextprotocol/conformance/package.json'), 'utf8')).bin.conformance);
const SPEC_VERSION = '2025-11-25';

interface Check {
  id: string;
  status: 'SUCCESS' | 'FAILURE' | 'WARNING' | 'INFO' | 'SKIPPED';
  errorMessage?: string;
}

let env: TestEnv;
let system: RunningSystem;
let resultsDir: string;

beforeAll(async () => {
  env = await createTestEnv('mcp_conformance');
  system = await startSystem(env);
  resultsDir = await mkdtemp(join(tmpdir(), 'postbus-conformance-'));
});
afterAll(async () => {
  await system?.stop();
  await env?.drop();
  if (resultsDir) await rm(resultsDir, { recursive: true, force: true });
});

/** Runs one server scenario; its exit code and the checks it wrote (checks.json) are the verdict. */
async function runScenario(url: string, scenario: string): Promise<{ exitCode: number | null; checks: Check[]; output: string }> {
  const outDir = await mkdtemp(join(resultsDir, `${scenario}-`));
  const { NODE_OPTIONS: _ignored, ...childEnv } = process.env;
  const child = spawn(NODE, [CLI, 'server', '--url', url, '--scenario', scenario, '--spec-version', SPEC_VERSION, '-o', outDir], { env: childEnv });
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  const exitCode = await new Promise<number | null>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 90_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve(code);
    });
  });
  const checks: Check[] = [];
  for (const dir of await readdir(outDir)) checks.push(...JSON.parse(await readFile(join(outDir, dir, 'checks.json'), 'utf8')));
  return { exitCode, checks, output };
}

function verdict(run: { exitCode: number | null; checks: Check[] }) {
  return { exitCode: run.exitCode, failures: run.checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`) };
}

describe(`the MCP conformance suite (${SPEC_VERSION})`, () => {
  test.each([
    ['through the gateway', () => `${system.baseUrl}/api/mcp`],
    ['on the mcp service itself', () => `${system.httpUrls.mcp}/api/mcp`],
  ])('when dns-rebinding-protection runs %s, then a foreign Host and Origin are refused and ours are answered', async (_where, url) => {
    const run = await runScenario(url(), 'dns-rebinding-protection');
    expect([verdict(run), run.output]).toEqual([{ exitCode: 0, failures: [] }, run.output]);
    const status = Object.fromEntries(run.checks.map((c) => [c.id, c.status]));
    expect(status).toMatchObject({ 'localhost-host-rebinding-rejected': 'SUCCESS', 'localhost-host-valid-accepted': 'SUCCESS' });
  }, 120_000);

  test.each(['server-initialize', 'ping', 'tools-list'])('when %s runs through the gateway, then every check passes', async (scenario) => {
    const run = await runScenario(`${system.baseUrl}/api/mcp`, scenario);
    expect([verdict(run), run.output]).toEqual([{ exitCode: 0, failures: [] }, run.output]);
    expect(run.checks.some((c) => c.status === 'SUCCESS')).toBe(true);
  }, 120_000);
});
