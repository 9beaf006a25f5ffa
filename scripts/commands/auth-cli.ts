/** Argument helpers shared by the account and key commands (not a command itself). */
export type CliArgs = Record<string, string | true>;

export function requiredArg(args: CliArgs, name: string, what: string): string {
  const v = args[name];
  if (typeof v !== 'string' || !v) throw new Error(`--${name} <${what}> is required`);
  return v;
}

export function optionalArg(args: CliArgs, name: string): string | undefined {
  const v = args[name];
  if (v === true) throw new Error(`--${name} needs a value`);
  return v || undefined;
}

/** Prints a result as aligned `name value` lines, or as JSON with --json. */
export function printResult(args: CliArgs, result: Record<string, unknown>): void {
  if (args.json) {
    console.log(JSON.stringify(result, null, 2));
    return;
  }
  const width = Math.max(...Object.keys(result).map((k) => k.length));
  for (const [k, v] of Object.entries(result))
    console.log(`${k.padEnd(width)}  ${typeof v === 'string' ? v : JSON.stringify(v)}`);
}
