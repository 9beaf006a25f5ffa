import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export const ROOT = join(__dirname, '..', '..', '..');

/** Every folder of services/ that is a runnable service (has src/main.ts). */
export function allServices(): string[] {
  return readdirSync(join(ROOT, 'services'))
    .filter((name) => existsSync(join(ROOT, 'services', name, 'src', 'main.ts')))
    .sort();
}

/** The services deployed to production: all but the development sandbox. */
export function deployedServices(): string[] {
  return allServices().filter((s) => s !== 'sandbox');
}

/** The names of the variables a service reads: the keys of the variable table its config.ts exports. */
export async function configVarsOf(service: string): Promise<Set<string>> {
  const mod = (await import(join(ROOT, 'services', service, 'src', 'config.ts'))) as Record<string, unknown>;
  const names = new Set<string>();
  for (const value of Object.values(mod)) {
    if (typeof value !== 'object' || value === null) continue;
    const entries = Object.entries(value as Record<string, unknown>);
    if (
      entries.length &&
      entries.every(
        ([, spec]) =>
          typeof spec === 'object' && spec !== null && typeof (spec as { parse?: unknown }).parse === 'function',
      )
    ) {
      for (const [name] of entries) names.add(name);
    }
  }
  if (!names.size) throw new Error(`services/${service}/src/config.ts exports no variable table`);
  return names;
}
