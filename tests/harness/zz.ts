import autocannon from 'autocannon';
import { readdirSync, readFileSync } from 'node:fs';
import { createTestEnv } from '@postbus/testing';
import { startLocalSystem } from './local-system';
const cpuOf = (pattern: RegExp) => { let t = 0; for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) { try { const cmd = readFileSync(`/proc/${pid}/cmdline`, 'utf8'); if (!pattern.test(cmd)) continue; const f = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' '); t += (Number(f[11]) + Number(f[12])) / 100; } catch {} } return t; };
(async () => {
  const env = await createTestEnv('zz');
  const sys = await startLocalSystem({ databaseUrl: env.databaseUrl, amqpUrl: env.amqpUrl, namespace: env.namespace, env: { BUS_EPHEMERAL: 'true', RATE_LIMIT_PER_MINUTE: process.env.ZZ_RL ?? '100000000', QUOTA_PRO_POSTS: '10000000' } });
  try {
    const a = await sys.seedAccount({ platforms: ['threads'], plan: 'pro' });
    const body = JSON.stringify({ platforms: ['threads'], caption: 'x', profileIds: [a.profiles[0].id], scheduledTime: new Date(Date.now() + 86400000 * 20).toISOString() });
    const first = await (await fetch(`${sys.baseUrl}/api/v1/posts`, { method: 'POST', body, headers: { authorization: `Bearer ${a.apiKey}`, 'content-type': 'application/json' } })).json() as any;
    await autocannon({ url: `${sys.baseUrl}/api/v1/posts/${first.postIds[0]}`, connections: 32, duration: 3, headers: { authorization: `Bearer ${a.apiKey}` } });
    const groups = { postgres: /^postgres/, rabbit: /beam\.smp/, gateway: /gateway\/src\/main/, posts: /posts\/src\/main/, all: /./ };
    const before = Object.fromEntries(Object.entries(groups).map(([k, re]) => [k, cpuOf(re)]));
    const self0 = process.cpuUsage();
    const r = await autocannon({ url: `${sys.baseUrl}/api/v1/posts/${first.postIds[0]}`, connections: 32, duration: 10, headers: { authorization: `Bearer ${a.apiKey}` } });
    const self = process.cpuUsage(self0);
    const n = r['2xx'];
    console.log('rps', (n / r.duration).toFixed(0), Object.entries(groups).map(([k, re]) => `${k} ${((cpuOf(re) - before[k]) * 1000 / n).toFixed(3)}`).join(', '), 'autocannon', ((self.user + self.system) / 1000 / n).toFixed(3), 'ms/req');
  } finally { await sys.stop(); await env.drop(); }
})();
