import { execFile, spawnSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../../../tests/system/support/system';

// The package as a user's project gets it: built and packed by npm, installed from the tarball into
// a folder outside the workspace (so nothing resolves to the workspace's sources or node_modules),
// then loaded by plain Node as an ES module and as CommonJS, and type-checked as a consumer would.

const run = promisify(execFile);
const packageDir = join(__dirname, '..');
const consumerSources = join(__dirname, 'consumer');
const tsc = require.resolve('typescript/bin/tsc');

let env: TestEnv;
let system: RunningSystem;
let project: string;
let tarball: string;

function npm(args: string[], cwd: string): string {
  const r = spawnSync('npm', args, { cwd, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`npm ${args.join(' ')} failed (${r.status}):\n${r.stdout}\n${r.stderr}`);
  return r.stdout;
}

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'postbus-client-consumer-'));
  // Synchronous on purpose and before the system starts: its services run in this process.
  tarball = join(
    project,
    npm(['pack', '--pack-destination', project, '--silent'], packageDir).trim().split('\n').pop()!,
  );
  writeFileSync(join(project, 'package.json'), JSON.stringify({ name: 'consumer', version: '1.0.0', private: true }));
  npm(['install', tarball, '--offline', '--no-audit', '--no-fund'], project);
  for (const file of ['publish.mjs', 'publish.cjs']) copyFileSync(join(consumerSources, file), join(project, file));

  env = await createTestEnv('client_package');
  system = await startSystem(env);
}, 180_000);
afterAll(async () => {
  await system?.stop();
  await env?.drop();
  if (project) rmSync(project, { recursive: true, force: true });
});

async function node(script: string, ...args: string[]): Promise<Record<string, any>> {
  const { stdout } = await run(process.execPath, [script, ...args], { cwd: project });
  return JSON.parse(stdout);
}

describe('the packed @postbus/client, installed outside the workspace', () => {
  test('when packed, then the tarball holds the built ESM, CommonJS and declarations only, and declares no runtime dependency', () => {
    const manifest = JSON.parse(
      readFileSync(join(project, 'node_modules', '@postbus', 'client', 'package.json'), 'utf8'),
    );
    expect(manifest.dependencies ?? {}).toEqual({});
    expect(manifest.exports['.']).toEqual({
      import: { types: './dist/index.d.mts', default: './dist/index.mjs' },
      require: { types: './dist/index.d.cts', default: './dist/index.cjs' },
    });
    const listed = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).stdout.trim().split('\n').sort();
    expect(listed).toEqual([
      'package/README.md',
      'package/dist/index.cjs',
      'package/dist/index.d.cts',
      'package/dist/index.d.mts',
      'package/dist/index.mjs',
      'package/dist/schema.d.ts',
      'package/package.json',
    ]);
  });

  test('when an ES module imports it, then it uploads media, publishes a post with it, and sees it posted', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const out = await node('publish.mjs', system.baseUrl, account.apiKey);
    expect(out.loaded).toMatch(/node_modules\/@postbus\/client\/dist\/index\.mjs$/);
    expect(out.mediaId).toMatch(/^med_/);
    expect(out.status).toBe('posted');
    expect(out.permalink).toMatch(/threads\.net/);
    expect(out.mediaUrls[0]).toContain(`/files/${out.mediaId}`);
    expect(out.error).toEqual({ status: 404, code: 'post_not_found' });
  });

  test('when a CommonJS module requires it, then it publishes a post and sees it posted', async () => {
    const account = await system.seedAccount({ platforms: ['threads'] });
    const out = await node('publish.cjs', system.baseUrl, account.apiKey);
    expect(out.loaded).toMatch(/node_modules\/@postbus\/client\/dist\/index\.cjs$/);
    expect(out.status).toBe('posted');
    expect(out.permalink).toMatch(/threads\.net/);
    expect(out.error).toEqual({ status: 404, code: 'post_not_found' });
  });

  test('when a TypeScript project compiles against it, then both entry points carry the API types and refuse a wrong path or platform', async () => {
    const consumer = `
      import { createClient, PostbusError, type Post, type components } from '@postbus/client';

      export async function run(): Promise<Post['status']> {
        const postbus = createClient({ baseUrl: 'http://localhost:3000', apiKey: 'sk_live_x' });
        const { mediaId } = await postbus.uploadMedia(new Uint8Array([1, 2, 3]), { filename: 'a.png' });
        const { postIds } = await postbus.publish({ platforms: ['threads'], caption: 'typed', mediaId });
        // @ts-expect-error: not a platform of the API
        await postbus.publish({ platforms: ['myspace'], caption: 'x' });
        // @ts-expect-error: not a path of the API
        await postbus.request('get', '/api/v1/nope');
        const error: components['schemas']['Error'] = { error: 'x', code: 'validation_error' };
        try {
          return (await postbus.waitForPost(postIds[0], { timeoutMs: 60_000 })).status;
        } catch (err) {
          if (err instanceof PostbusError) throw new Error(err.code + err.status + error.code);
          throw err;
        }
      }
    `;
    writeFileSync(join(project, 'consumer.mts'), consumer);
    writeFileSync(join(project, 'consumer.cts'), consumer);
    writeFileSync(
      join(project, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: {
          module: 'nodenext',
          moduleResolution: 'nodenext',
          target: 'es2022',
          lib: ['es2022', 'dom'],
          types: [],
          strict: true,
          noEmit: true,
          skipLibCheck: false,
        },
        files: ['consumer.mts', 'consumer.cts'],
      }),
    );
    const r = await run(process.execPath, [tsc, '-p', project, '--listFiles'], { cwd: project }).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (err: { code: number; stdout: string }) => ({ code: err.code, stdout: err.stdout }),
    );
    const files = r.stdout.split('\n');
    expect(files.filter((line) => line.includes('error TS'))).toEqual([]);
    expect(r.code).toBe(0);
    expect(files).toEqual(
      expect.arrayContaining([
        join(project, 'node_modules/@postbus/client/dist/index.d.mts'),
        join(project, 'node_modules/@postbus/client/dist/index.d.cts'),
      ]),
    );
  });
});
