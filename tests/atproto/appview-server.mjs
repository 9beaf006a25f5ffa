// Runs Bluesky's whole reference network (@atproto/dev-env TestNetwork: PLC, PDS, the bsky AppView
// and its helpers) on Node.js 22, for reads only the AppView answers (app.bsky.feed.getPostThread).
// Arguments: a PostgreSQL URL (the AppView's database; each run uses schemas of its own) and the
// account names to create. It starts its own redis-server on a free port, prints one JSON line
// describing the network, then answers each "sync" line on standard input with {"synced":true}
// once the AppView has indexed everything the PDS wrote. It stops when its standard input closes.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { createInterface } from 'node:readline';
import { TestNetwork } from '@atproto/dev-env';

const [dbPostgresUrl, ...names] = process.argv.slice(2);
const freePort = () =>
  new Promise((resolve) => {
    const s = createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
const redisPort = await freePort();
const redis = spawn(
  'redis-server',
  ['--port', String(redisPort), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
  {
    stdio: 'ignore',
  },
);
process.env.REDIS_HOST = `127.0.0.1:${redisPort}`;
// Schema names may hold letters and underscores only.
const schema = `postbus_${Array.from({ length: 10 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;
const network = await TestNetwork.create({ dbPostgresUrl, dbPostgresSchema: schema });
const accounts = [];
for (const name of names.length ? names : ['alice']) {
  const agent = network.pds.getAgent();
  await agent.createAccount({ email: `${name}@example.test`, handle: `${name}.test`, password: `${name}-password-1` });
  const app = await agent.com.atproto.server.createAppPassword({ name: 'postbus' });
  accounts.push({ handle: agent.session.handle, did: agent.session.did, appPassword: app.data.password });
}
await network.processAll();
console.log(JSON.stringify({ pdsUrl: network.pds.url, appViewUrl: network.bsky.url, accounts }));

createInterface({ input: process.stdin }).on('line', async (line) => {
  if (line.trim() !== 'sync') return;
  await network.processAll();
  console.log(JSON.stringify({ synced: true }));
});
let closing = false;
const close = async () => {
  if (closing) return;
  closing = true;
  await network.close().catch(() => undefined);
  redis.kill();
  process.exit(0);
};
process.stdin.on('end', close);
process.stdin.on('close', close);
process.on('SIGTERM', close);
