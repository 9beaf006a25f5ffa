import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, readlinkSync } from 'node:fs';

/** A process listening on a TCP port, as the operating system names it. */
export interface PortHolder {
  pid: number;
  command: string;
}

const LISTEN = '0A';

/**
 * Who listens on `port` on this machine: from /proc (the socket's inode in /proc/net/tcp{,6},
 * then the process with a descriptor on it), else from `ss -ltnp`. Empty when neither can tell
 * (another user's process, a system without /proc or ss).
 */
export function findPortHolders(port: number): PortHolder[] {
  const fromProc = holdersFromProc(port);
  return fromProc.length ? fromProc : holdersFromSs(port);
}

/** "port 9402 is taken by pid 1234 (node worker.js)", or as much of it as can be known. */
export function describePortHolder(port: number): string {
  const holders = findPortHolders(port);
  if (!holders.length) return `port ${port} is taken (by a process this user cannot see)`;
  return `port ${port} is taken by ${holders.map((h) => `pid ${h.pid} (${h.command})`).join(', ')}`;
}

function holdersFromProc(port: number): PortHolder[] {
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    // sl local_address rem_address st tx:rx tr:when retrnsmt uid timeout inode …
    for (const line of text.split('\n').slice(1)) {
      const f = line.trim().split(/\s+/);
      if (f.length < 10 || f[3] !== LISTEN) continue;
      if (parseInt(f[1].split(':').pop()!, 16) === port) inodes.add(f[9]);
    }
  }
  if (!inodes.size) return [];
  const holders: PortHolder[] = [];
  for (const pid of safeReaddir('/proc').filter((d) => /^\d+$/.test(d))) {
    // Another user's descriptors are unreadable: skipped, as `ss` would skip them.
    const holds = safeReaddir(`/proc/${pid}/fd`).some((fd) => {
      const target = safeReadlink(`/proc/${pid}/fd/${fd}`);
      return target?.startsWith('socket:[') && inodes.has(target.slice(8, -1));
    });
    if (holds) holders.push({ pid: Number(pid), command: commandOf(Number(pid)) });
  }
  return holders;
}

/** `ss -ltnpH sport = :<port>` lines: `LISTEN 0 511 127.0.0.1:9402 0.0.0.0:* users:(("node",pid=1234,fd=22))`. */
function holdersFromSs(port: number): PortHolder[] {
  const ss = spawnSync('ss', ['-ltnpH', `sport = :${port}`], { encoding: 'utf8', timeout: 3000 });
  if (ss.status !== 0 || !ss.stdout) return [];
  const holders = new Map<number, PortHolder>();
  for (const m of ss.stdout.matchAll(/\("([^"]*)",pid=(\d+)/g)) {
    const pid = Number(m[2]);
    holders.set(pid, { pid, command: commandOf(pid) || m[1] });
  }
  return [...holders.values()];
}

function commandOf(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean).join(' ');
    return argv.length > 200 ? `${argv.slice(0, 197)}…` : argv;
  } catch {
    return '';
  }
}

function safeReaddir(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

function safeReadlink(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}
