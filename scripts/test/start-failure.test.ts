import { rm } from 'node:fs/promises';
import { createServer, type AddressInfo, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestEnv, type TestEnv } from '@postbus/testing';
import { describePortHolder } from '../launch/port-holder';
import { ServiceGroup } from '../launch/service-group';
import { portsInUse } from '../launch/start-failure';

const ROOT = join(__dirname, '..', '..');

let env: TestEnv;
let squatter: Server;
let takenPort: number;
const mediaDir = join(tmpdir(), `postbus-start-failure-${process.pid}`);

beforeAll(async () => {
  env = await createTestEnv('start_failure');
  // A listener of this test process holds the port one service is told to use.
  squatter = createServer();
  await new Promise<void>((resolve) => squatter.listen(0, '127.0.0.1', resolve));
  takenPort = (squatter.address() as AddressInfo).port;
});
afterAll(async () => {
  await new Promise((resolve) => squatter?.close(resolve));
  await env?.drop();
  await rm(mediaDir, { recursive: true, force: true });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

test('when a port is held by a listener, then the process holding it is named', () => {
  expect(describePortHolder(takenPort)).toMatch(
    new RegExp(`^port ${takenPort} is taken by pid ${process.pid} \\(.*node`),
  );
  expect(
    portsInUse(
      'Error: listen EADDRINUSE: address already in use 127.0.0.1:3002\nMETRICS_PORT 9402 is in use (another process…)\nlisten EADDRINUSE: address already in use :::3000',
    ),
  ).toEqual([3002, 3000, 9402]);
});

test('when one service cannot take its metrics port, then the start fails naming the port and its holder, and every process it started has exited', async () => {
  const common: Record<string, string> = {
    ...(process.env as Record<string, string>),
    ...env.env,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    METRICS_HOST: '127.0.0.1',
    METRICS_PORT: '0',
    AUTH_HTTP_PORT: '0',
    MEDIA_HTTP_PORT: '0',
    MEDIA_LOCAL_DIR: mediaDir,
  };
  const group = new ServiceGroup({ root: ROOT, graceMs: 15_000 });
  const services = ['auth', 'posts', 'media'].map((name) => ({
    name,
    entry: `services/${name}/src/main.ts`,
    env: name === 'media' ? { ...common, METRICS_PORT: String(takenPort) } : common,
  }));
  // The system never becomes ready here: only a service's failure can end the start.
  const neverReady = (signal: AbortSignal) =>
    new Promise<void>((_resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('no service failed to start')), 150_000);
      signal.addEventListener('abort', () => clearTimeout(timer));
    });

  const failure = await group.start(services, neverReady).then(
    () => undefined,
    (err: Error) => err,
  );

  expect(failure?.message).toMatch(
    new RegExp(`^media exited \\(1\\): port ${takenPort} is taken by pid ${process.pid} \\(`),
  );
  expect(group.pids).toHaveLength(3);
  expect(group.pids.filter(isAlive)).toEqual([]);
}, 200_000);
