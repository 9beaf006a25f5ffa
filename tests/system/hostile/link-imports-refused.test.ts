import { hostname } from 'node:os';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { startLinkOrigin, type LinkOrigin } from './link-origin';
import { callTool } from '../support/mcp-client';
import { call, DatabaseFingerprint, isCodedRefusal } from './support';

/**
 * Link imports as production runs them (loopback refused): links to loopback, private,
 * link-local, carrier-grade NAT, multicast and cloud metadata addresses, written every way a URL
 * allows, and host names that resolve to loopback, are refused over REST and over the agent
 * tool, before any connection is made, and nothing is stored.
 */

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let origin: LinkOrigin;
let fingerprint: DatabaseFingerprint;

beforeAll(async () => {
  env = await createTestEnv('hostile_links');
  system = await startSystem(env, {
    RATE_LIMIT_PER_MINUTE: '0',
    SCHEDULER_TICK_MS: '3600000',
    MEDIA_ALLOW_LOOPBACK_IMPORTS: 'false',
  });
  account = await system.seedAccount({ platforms: ['threads'], plan: 'pro' });
  origin = await startLinkOrigin();
  fingerprint = await DatabaseFingerprint.open(env.databaseUrl);
});
afterAll(async () => {
  await fingerprint?.close();
  await origin?.close();
  await system?.stop();
  await env?.drop();
});

const links = () => {
  const p = origin.port;
  return [
    // loopback, every way it can be written, and by name
    `http://127.0.0.1:${p}/a.jpg`,
    `http://127.1:${p}/a.jpg`,
    `http://2130706433:${p}/a.jpg`,
    `http://0x7f000001:${p}/a.jpg`,
    `http://0177.0.0.1:${p}/a.jpg`,
    `http://[::1]:${p}/a.jpg`,
    `http://[::ffff:127.0.0.1]:${p}/a.jpg`,
    `http://[::ffff:7f00:1]:${p}/a.jpg`,
    `http://localhost:${p}/a.jpg`,
    `http://LOCALHOST.:${p}/a.jpg`,
    `http://${hostname()}:${p}/a.jpg`,
    // unspecified (reaches the machine itself on Linux)
    `http://0.0.0.0:${p}/a.jpg`,
    `http://[::]:${p}/a.jpg`,
    // private ranges
    'http://10.0.0.1/a.jpg',
    'http://172.16.5.4/a.jpg',
    'http://192.168.1.1/a.jpg',
    'http://[fd12:3456::1]/a.jpg',
    'http://[::ffff:10.0.0.1]/a.jpg',
    // link-local and cloud metadata
    'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
    'http://[fe80::1]/a.jpg',
    'http://[fd00:ec2::254]/latest/meta-data/',
    'http://100.100.100.200/latest/meta-data/',
    'http://168.63.129.16/metadata/instance',
    // carrier-grade NAT, multicast, broadcast
    'http://100.64.0.1/a.jpg',
    'http://224.0.0.1/a.jpg',
    'http://255.255.255.255/a.jpg',
  ];
};

describe('link imports to addresses inside the network', () => {
  test('when a link names loopback, private, link-local or metadata addresses in any spelling, then every import is refused with a code over REST, no connection is made, and nothing is stored', async () => {
    const before = await fingerprint.take();
    const refused: Record<string, string> = {};
    for (const url of links()) {
      const answer = await call(system.baseUrl, 'post', '/api/v1/media/from-url', {
        key: account.apiKey,
        body: { url },
      });
      refused[url] = isCodedRefusal(answer) ? 'refused' : `${answer.status} ${answer.text.slice(0, 120)}`;
    }
    expect(refused).toEqual(Object.fromEntries(links().map((u) => [u, 'refused'])));
    expect(origin.hits()).toBe(0);
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });

  test('when an agent asks the tool to import the same links, then each is refused in-band with a code and nothing is stored', async () => {
    const before = await fingerprint.take();
    const answers: Record<string, string> = {};
    for (const url of links()) {
      const answer = await callTool(system.baseUrl, 'svc_add_media_from_url', { url }, account.apiKey);
      answers[url] =
        answer.status === 200 && answer.error?.code && answer.error.code !== 'internal_error'
          ? 'refused'
          : `${answer.status} ${JSON.stringify(answer.message).slice(0, 120)}`;
    }
    expect(answers).toEqual(Object.fromEntries(links().map((u) => [u, 'refused'])));
    expect(origin.hits()).toBe(0);
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });
});
