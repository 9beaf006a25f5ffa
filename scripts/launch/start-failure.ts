import { describePortHolder } from './port-holder';

/**
 * The ports a service's output says it could not listen on: Node's `listen EADDRINUSE: address
 * already in use 127.0.0.1:3002` and the operations listener's `METRICS_PORT 9402 is in use`.
 */
export function portsInUse(output: string): number[] {
  const ports = new Set<number>();
  for (const m of output.matchAll(/address already in use \S*?:(\d{1,5})\b/g)) ports.add(Number(m[1]));
  for (const m of output.matchAll(/\b(\d{1,5}) is in use\b/g)) ports.add(Number(m[1]));
  return [...ports];
}

/**
 * Why a service ended on its own, in words a person can act on: a taken port
 * names the process holding it; anything else points at the service's log (or quotes its end).
 */
export function explainExit(
  name: string,
  code: number | null,
  signal: string | null,
  output: string,
  opts: { logShown: boolean },
): string {
  const ended = `${name} exited (${signal ?? code})`;
  const ports = portsInUse(output);
  if (ports.length)
    return `${ended}: ${ports.map(describePortHolder).join('; ')}. Stop that process or give ${name} another port.`;
  if (opts.logShown) return `${ended}; see its log above.`;
  return `${ended}; the end of its log:\n${output.trim().split('\n').slice(-20).join('\n')}`;
}
