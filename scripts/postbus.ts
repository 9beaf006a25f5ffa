/**
 * Operator CLI: `pnpm postbus <command> [--flag value …]`. Talks to the running services over
 * the bus (AMQP_URL, BUS_NAMESPACE), so it works wherever the services' broker is reachable.
 * Each command lives in scripts/commands/<name>.command.ts and exports `command`.
 */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { openBus, operatorToolKeys, type Bus } from '@postbus/bus';
import { createLogger } from '@postbus/kit';

export interface CliCommand {
  name: string;
  summary: string;
  usage: string;
  run(
    args: Record<string, string | true>,
    ctx: { bus: () => Promise<Bus>; env: Record<string, string | undefined> },
  ): Promise<void>;
}

function parseArgs(argv: string[]): Record<string, string | true> {
  const out: Record<string, string | true> = {};
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (!a.startsWith('--')) continue;
    const [k, inline] = a.slice(2).split('=', 2);
    if (inline !== undefined) out[k] = inline;
    else if (argv[i + 1] && !argv[i + 1].startsWith('--')) out[k] = argv[++i];
    else out[k] = true;
  }
  return out;
}

async function main(): Promise<void> {
  const files = readdirSync(join(__dirname, 'commands')).filter((f) => f.endsWith('.command.ts'));
  const modules = await Promise.all(
    files.map((f) => import(join(__dirname, 'commands', f)) as Promise<{ command: CliCommand }>),
  );
  const commands = modules.map((m) => m.command).sort((a, b) => a.name.localeCompare(b.name));
  const [name, ...rest] = process.argv.slice(2);
  const command = commands.find((c) => c.name === name);
  if (!command) {
    console.log('usage: pnpm postbus <command> [options]\n');
    for (const c of commands) console.log(`  ${c.usage.padEnd(70)} ${c.summary}`);
    process.exit(name && name !== 'help' ? 2 : 0);
  }
  let bus: Bus | undefined;
  const env = process.env;
  try {
    await command.run(parseArgs(rest), {
      env,
      bus: async () =>
        (bus ??= await openBus({
          url: env.AMQP_URL ?? 'amqp://guest:guest@127.0.0.1:5672',
          namespace: env.BUS_NAMESPACE ?? 'postbus',
          logger: createLogger('cli', 'error'),
          rpcTimeoutMs: 10_000,
          keys: operatorToolKeys(env),
        })),
    });
  } catch (err) {
    console.error(`error: ${(err as Error).message}`);
    process.exitCode = 1;
  } finally {
    await bus?.close();
  }
}

void main();
