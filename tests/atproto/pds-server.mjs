// Runs Bluesky's reference PDS with a local PLC (@atproto/dev-env) on Node.js 22, creates the
// accounts a test asks for (each with an app password) and prints one JSON line describing them.
// It stops when its standard input closes (the test process ended) or on SIGTERM.
import { TestNetworkNoAppView } from '@atproto/dev-env';

const names = process.argv.slice(2).length ? process.argv.slice(2) : ['alice'];
const network = await TestNetworkNoAppView.create({});
const accounts = [];
for (const name of names) {
  const agent = network.pds.getAgent();
  await agent.createAccount({ email: `${name}@example.test`, handle: `${name}.test`, password: `${name}-password-1` });
  const app = await agent.com.atproto.server.createAppPassword({ name: 'postbus' });
  accounts.push({
    handle: agent.session.handle,
    did: agent.session.did,
    password: `${name}-password-1`,
    appPassword: app.data.password,
  });
}
console.log(JSON.stringify({ pdsUrl: network.pds.url, plcUrl: network.plc.url, accounts }));

let closing = false;
const close = async () => {
  if (closing) return;
  closing = true;
  await network.close().catch(() => undefined);
  process.exit(0);
};
process.stdin.on('end', close);
process.stdin.on('close', close);
process.stdin.resume();
process.on('SIGTERM', close);
