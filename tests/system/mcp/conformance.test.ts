import { spawn } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';

/**
 * The official MCP conformance suite (tests/conformance pins it, with the Node.js 22 it needs)
 * against the running system: single scenarios at the 2025-11-25 revision, then each requirement
 * set (2025-11-25 on the initialize wire, 2026-07-28 on the stateless one) as the suite defines it.
 */
const SUITE = join(__dirname, '../../conformance/node_modules');
const NODE = join(SUITE, 'node/bin/node');
const CLI = join(
  SUITE,
  '@modelcontextprotocol/conformance',
  JSON.parse(readFileSync(join(SUITE, '@modelcontextprotocol/conformance/package.json'), 'utf8')).bin.conformance,
);
const SPEC_VERSION = '2025-11-25';

interface Check {
  id: string;
  name: string;
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
async function runScenario(
  url: string,
  scenario: string,
): Promise<{ exitCode: number | null; checks: Check[]; output: string }> {
  const outDir = await mkdtemp(join(resultsDir, `${scenario}-`));
  const { NODE_OPTIONS: _ignored, ...childEnv } = process.env;
  const child = spawn(
    NODE,
    [CLI, 'server', '--url', url, '--scenario', scenario, '--spec-version', SPEC_VERSION, '-o', outDir],
    { env: childEnv },
  );
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
  for (const dir of await readdir(outDir))
    checks.push(...JSON.parse(await readFile(join(outDir, dir, 'checks.json'), 'utf8')));
  return { exitCode, checks, output };
}

function verdict(run: { exitCode: number | null; checks: Check[] }) {
  return {
    exitCode: run.exitCode,
    failures: run.checks.filter((c) => c.status === 'FAILURE').map((c) => `${c.id}: ${c.errorMessage ?? ''}`),
  };
}

describe(`the MCP conformance suite (${SPEC_VERSION})`, () => {
  test.each([
    ['through the gateway', () => `${system.baseUrl}/api/mcp`],
    ['on the mcp service itself', () => `${system.httpUrls.mcp}/api/mcp`],
  ])(
    'when dns-rebinding-protection runs %s, then a foreign Host and Origin are refused and ours are answered',
    async (_where, url) => {
      const run = await runScenario(url(), 'dns-rebinding-protection');
      expect([verdict(run), run.output]).toEqual([{ exitCode: 0, failures: [] }, run.output]);
      const status = Object.fromEntries(run.checks.map((c) => [c.id, c.status]));
      expect(status).toMatchObject({
        'localhost-host-rebinding-rejected': 'SUCCESS',
        'localhost-host-valid-accepted': 'SUCCESS',
      });
    },
    120_000,
  );

  test.each(['server-initialize', 'ping', 'tools-list'])(
    'when %s runs through the gateway, then every check passes',
    async (scenario) => {
      const run = await runScenario(`${system.baseUrl}/api/mcp`, scenario);
      expect([verdict(run), run.output]).toEqual([{ exitCode: 0, failures: [] }, run.output]);
      expect(run.checks.some((c) => c.status === 'SUCCESS')).toBe(true);
    },
    120_000,
  );
});

type Revision = '2025-11-25' | '2026-07-28';

const FIXTURE =
  "needs the suite's own reference tools, prompts or resources (test_*), which a product server does not have";
const ANONYMOUS_CALL =
  'probes with a tools/call without credentials, which this endpoint answers 401 with the Bearer challenge (and its { error, code } body) before any JSON-RPC processing';

/**
 * The scenarios of each requirement set (scored or run unscored) that apply to Postbus, each with
 * the checks inside it (by check name) that cannot apply and why. Every other check must pass.
 */
const APPLICABLE: Record<Revision, Record<string, Record<string, string>>> = {
  '2025-11-25': {
    'server-initialize': {},
    ping: {},
    'tools-list': {},
    'dns-rebinding-protection': {},
    'server-session-lifecycle': {},
  },
  '2026-07-28': {
    'server-stateless': {
      HttpServerErrorJsonrpcId: ANONYMOUS_CALL,
      ServerRejectsUndeclaredCapability: FIXTURE,
      MissingCapabilityHttp400: FIXTURE,
      HttpServerNoIndependentRequestsOnStream: FIXTURE,
      ServerNoLogWithoutLogLevel: FIXTURE,
    },
    'tools-list': {},
    'server-sse-multiple-streams': {},
    'sep-2164-resource-not-found': {},
    'dns-rebinding-protection': {},
    caching: {
      PromptsListCachingHints: 'no prompts capability: prompts/list is method-not-found, as it must be',
    },
    'input-required-result-unsupported-methods': {},
    'http-header-validation': {
      ServerRejectsMismatchedNameHeader: `${ANONYMOUS_CALL}; Mcp-Name is checked once the caller is known (400 -32020 with credentials)`,
      ServerRejectsMissingNameHeader: `${ANONYMOUS_CALL}; Mcp-Name is checked once the caller is known (400 -32020 with credentials)`,
      ServerAcceptsWhitespaceHeaderValue: `${ANONYMOUS_CALL}; it needs the call to succeed`,
    },
  },
};

/** Scenarios both requirement sets run that do not apply to a product server, and why (services/mcp/README.md lists them too). */
const NOT_APPLICABLE_EITHER: Record<string, string> = {
  'logging-set-level': 'no logging capability (logging/setLevel is method-not-found)',
  'completion-complete': 'no completions capability; completes the suite’s own prompt arguments',
  'tools-call-simple-text': FIXTURE,
  'tools-call-image': FIXTURE,
  'tools-call-audio': FIXTURE,
  'tools-call-embedded-resource': FIXTURE,
  'tools-call-mixed-content': FIXTURE,
  'tools-call-with-logging': FIXTURE,
  'tools-call-error': FIXTURE,
  'tools-call-with-progress': FIXTURE,
  'tools-call-sampling': `${FIXTURE}; the server never asks the client to sample`,
  'tools-call-elicitation': `${FIXTURE}; the server never elicits`,
  'elicitation-sep1034-defaults': `${FIXTURE}; the server never elicits`,
  'elicitation-sep1330-enums': `${FIXTURE}; the server never elicits`,
  'resources-list': `${FIXTURE}; Postbus lists no resources and reads only postbus://posts/{id} and postbus://media/{id}`,
  'resources-read-text': `${FIXTURE}; Postbus lists no resources and reads only postbus://posts/{id} and postbus://media/{id}`,
  'resources-read-binary': `${FIXTURE}; Postbus lists no resources and reads only postbus://posts/{id} and postbus://media/{id}`,
  'resources-templates-read': `${FIXTURE}; Postbus lists no resources and reads only postbus://posts/{id} and postbus://media/{id}`,
  'resources-subscribe': 'resources/subscribe is not offered (the resources capability has no subscribe)',
  'resources-unsubscribe': 'resources/subscribe is not offered (the resources capability has no subscribe)',
  'prompts-list': 'no prompts capability',
  'prompts-get-simple': 'no prompts capability',
  'prompts-get-with-args': 'no prompts capability',
  'prompts-get-embedded-resource': 'no prompts capability',
  'prompts-get-with-image': 'no prompts capability',
  'json-schema-2020-12': FIXTURE,
  'server-sse-polling': 'resumable SSE streams: the endpoint answers JSON per request and keeps no stream to resume',
  'input-required-result-basic-elicitation': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-basic-sampling': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-basic-list-roots': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-request-state': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-multiple-input-requests': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-multi-round': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-missing-input-response': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-non-tool-request': `${FIXTURE}; no prompts or resources ask for input`,
  'input-required-result-result-type': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-tampered-state': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-capability-check': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-ignore-extra-params': `${FIXTURE}; no tool asks for input (input_required)`,
  'input-required-result-validate-input': `${FIXTURE}; ${ANONYMOUS_CALL}`,
  'http-custom-header-server-validation': 'no tool argument is mirrored into an Mcp-Param-* header (x-mcp-header)',
  'tasks-lifecycle': 'Tasks extension (io.modelcontextprotocol/tasks) not offered: every tool answers synchronously',
  'tasks-capability-negotiation': 'Tasks extension not offered',
  'tasks-wire-fields': 'Tasks extension not offered',
  'tasks-request-state-removal': 'Tasks extension not offered',
  'tasks-mrtr-input': 'Tasks extension not offered',
  'tasks-request-headers': 'Tasks extension not offered',
  'tasks-dispatch-and-envelope': 'Tasks extension not offered',
  'tasks-status-notifications': 'Tasks extension not offered',
  'tasks-required-task-error': 'Tasks extension not offered',
  'tasks-mrtr-composition': 'Tasks extension not offered',
};

const NOT_APPLICABLE: Record<Revision, Record<string, string>> = {
  '2025-11-25': {
    ...NOT_APPLICABLE_EITHER,
    'server-sse-multiple-streams':
      'opens several streams within one session; the endpoint is stateless (no MCP-Session-Id), so the suite runs no check at this revision',
  },
  '2026-07-28': NOT_APPLICABLE_EITHER,
};

/** Runs a whole requirement set through the gateway; the checks of each scenario it ran, by scenario. */
async function runRequirementSet(
  url: string,
  revision: Revision,
): Promise<{ byScenario: Map<string, Check[]>; output: string }> {
  const outDir = await mkdtemp(join(resultsDir, `requirements-${revision}-`));
  const { NODE_OPTIONS: _ignored, ...childEnv } = process.env;
  const child = spawn(
    NODE,
    [CLI, 'server', '--url', url, '--requirements', revision, '--timeout', '15000', '-o', outDir],
    { env: childEnv },
  );
  let output = '';
  child.stdout.on('data', (d) => (output += d));
  child.stderr.on('data', (d) => (output += d));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000);
    child.on('error', reject);
    child.on('close', () => {
      clearTimeout(timer);
      resolve();
    });
  });
  const byScenario = new Map<string, Check[]>();
  for (const dir of await readdir(outDir)) {
    const scenario = /^server-(.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z$/.exec(dir)?.[1];
    if (scenario) byScenario.set(scenario, JSON.parse(await readFile(join(outDir, dir, 'checks.json'), 'utf8')));
  }
  return { byScenario, output };
}

describe.each(['2025-11-25', '2026-07-28'] as const)(
  'the %s requirement set of the MCP conformance suite',
  (revision) => {
    let run: { byScenario: Map<string, Check[]>; output: string };
    beforeAll(async () => {
      run = await runRequirementSet(`${system.baseUrl}/api/mcp`, revision);
    }, 160_000);

    test('when it has run, then every scenario it ran is either applicable or not applicable for a stated reason', () => {
      expect(run.byScenario.size).toBeGreaterThan(0);
      const unclassified = [...run.byScenario.keys()].filter(
        (s) => !(s in APPLICABLE[revision]) && !(s in NOT_APPLICABLE[revision]),
      );
      expect([unclassified, run.output]).toEqual([[], run.output]);
      // An applicable scenario the suite stopped running would pass unseen.
      expect(Object.keys(APPLICABLE[revision]).filter((s) => !run.byScenario.has(s))).toEqual([]);
    });

    test.each(Object.keys(APPLICABLE[revision]))('when %s ran, then every check that applies passes', (scenario) => {
      const checks = run.byScenario.get(scenario) ?? [];
      const exempt = APPLICABLE[revision][scenario];
      const failures = checks
        .filter((c) => c.status === 'FAILURE' && !(c.name in exempt))
        .map((c) => `${c.name} (${c.id}): ${c.errorMessage ?? ''}`);
      expect(failures).toEqual([]);
      expect(checks.some((c) => (c.status === 'SUCCESS' || c.status === 'INFO') && !(c.name in exempt))).toBe(true);
    });
  },
);
