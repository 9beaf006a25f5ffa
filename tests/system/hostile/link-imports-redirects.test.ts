import { lookup } from 'node:dns/promises';
import { isIP } from 'node:net';
import { createTestEnv, type SeededAccount, type TestEnv } from '@postbus/testing';
import { startSystem, type RunningSystem } from '../support/system';
import { startLinkOrigin, type LinkOrigin } from './link-origin';
import { call, DatabaseFingerprint, isCodedRefusal } from './support';

/**
 * Link imports that start somewhere allowed and end inside the network: a redirect to a private,
 * link-local or metadata address, and host names whose DNS answer points there (the media
 * service is given a resolver that plays those answers; loopback is allowed here, as in
 * development, so that the first hop can be a local server). All refused, nothing stored.
 */

interface ResolvedAddress {
  address: string;
  family: number;
}

const DNS: Record<string, ResolvedAddress[]> = {
  'cdn.example.test': [{ address: '127.0.0.1', family: 4 }],
  'intranet.example.test': [{ address: '10.20.30.40', family: 4 }],
  'router.example.test': [{ address: '192.168.1.1', family: 4 }],
  'metadata.google.internal': [{ address: '169.254.169.254', family: 4 }],
  'instance-data.example.test': [{ address: 'fd00:ec2::254', family: 6 }],
  'ula.example.test': [{ address: 'fd12:3456::1', family: 6 }],
  'linklocal.example.test': [{ address: 'fe80::1', family: 6 }],
  'cgnat.example.test': [{ address: '100.64.0.9', family: 4 }],
  'rebind.example.test': [
    { address: '10.0.0.7', family: 4 },
    { address: '169.254.169.254', family: 4 },
  ],
};
const resolve = async (host: string): Promise<ResolvedAddress[]> =>
  DNS[host.toLowerCase().replace(/\.$/, '')] ??
  (isIP(host) ? [{ address: host, family: isIP(host) }] : lookup(host, { all: true, verbatim: true }));

let env: TestEnv;
let system: RunningSystem;
let account: SeededAccount;
let origin: LinkOrigin;
let fingerprint: DatabaseFingerprint;

beforeAll(async () => {
  env = await createTestEnv('hostile_redirects');
  system = await startSystem(
    env,
    { RATE_LIMIT_PER_MINUTE: '0', SCHEDULER_TICK_MS: '3600000', MEDIA_ALLOW_LOOPBACK_IMPORTS: 'true' },
    { media: { resolve } },
  );
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

const FORBIDDEN = [
  'http://10.20.30.40/photo.jpg',
  'http://192.168.1.1/photo.jpg',
  'http://169.254.169.254/latest/meta-data/iam/security-credentials/',
  'http://[fd00:ec2::254]/latest/meta-data/',
  'http://[fe80::1]/photo.jpg',
  'http://100.100.100.200/latest/meta-data/',
  'http://intranet.example.test/photo.jpg',
  'http://metadata.google.internal/computeMetadata/v1/instance/service-accounts/default/token',
  'http://ula.example.test/photo.jpg',
  'http://linklocal.example.test/photo.jpg',
  'http://cgnat.example.test/photo.jpg',
  'http://rebind.example.test/photo.jpg',
];
const NAMES = [
  'intranet.example.test',
  'router.example.test',
  'metadata.google.internal',
  'instance-data.example.test',
  'ula.example.test',
  'linklocal.example.test',
  'cgnat.example.test',
  'rebind.example.test',
];

const importLink = (url: string) =>
  call(system.baseUrl, 'post', '/api/v1/media/from-url', { key: account.apiKey, body: { url } });

describe('link imports that lead inside the network', () => {
  test('when a host name resolves to a public-looking address the system may reach, then the link is imported (the setup refuses only what it should)', async () => {
    const answer = await importLink(`http://cdn.example.test:${origin.port}/photo.jpg`);
    expect(answer).toMatchObject({ status: 201, body: { contentType: 'image/jpeg' } });
  });

  test('when host names resolve to private, link-local, carrier-grade NAT or metadata addresses, then every import is refused with a code and nothing is stored', async () => {
    const before = await fingerprint.take();
    const answers: Record<string, string> = {};
    for (const name of NAMES) {
      const answer = await importLink(`http://${name}:${origin.port}/photo.jpg`);
      answers[name] = isCodedRefusal(answer) ? 'refused' : `${answer.status} ${answer.text.slice(0, 120)}`;
    }
    expect(answers).toEqual(Object.fromEntries(NAMES.map((n) => [n, 'refused'])));
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });

  test('when an allowed link redirects inside the network, by address or by name, then the import is refused with a code at that hop and nothing is stored', async () => {
    const before = await fingerprint.take();
    const hitsBefore = origin.hits();
    const answers: Record<string, string> = {};
    for (const target of FORBIDDEN) {
      const answer = await importLink(origin.redirectTo(target));
      answers[target] = isCodedRefusal(answer) ? 'refused' : `${answer.status} ${answer.text.slice(0, 120)}`;
    }
    expect(answers).toEqual(Object.fromEntries(FORBIDDEN.map((t) => [t, 'refused'])));
    // Each import reached the origin once (the redirect) and went no further.
    expect(origin.hits() - hitsBefore).toBe(FORBIDDEN.length);
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });

  test('when redirects chain through allowed hops before turning inside, then the import is refused and nothing is stored', async () => {
    const before = await fingerprint.take();
    const chained = origin.redirectTo(
      `http://cdn.example.test:${origin.port}/to?target=${encodeURIComponent('http://metadata.google.internal/computeMetadata/v1/')}`,
    );
    const answer = await importLink(chained);
    expect(isCodedRefusal(answer)).toBe(true);
    expect(DatabaseFingerprint.changed(before, await fingerprint.take())).toEqual([]);
  });
});
