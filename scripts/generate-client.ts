/**
 * Regenerates libs/client/src/schema.ts (types for every path) from the contracts' OpenAPI
 * document: `pnpm gen:client`. With --check, fails when the committed file is stale. The file is
 * types only: the package build (libs/client/scripts/build.mjs) ships it as dist/schema.d.ts.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { OpenAPI3 } from 'openapi-typescript' with { 'resolution-mode': 'import' };
import { buildOpenApi } from '@postbus/contracts';

const target = join(__dirname, '..', 'libs', 'client', 'src', 'schema.ts');

async function main(): Promise<void> {
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const doc = buildOpenApi({ baseUrl: 'http://localhost:3000' });
  // Through JSON: the library wants the plain document, without TypeBox's symbol keys.
  const ast = await openapiTS(JSON.parse(JSON.stringify(doc)) as OpenAPI3, { alphabetize: true });
  const source = `// Generated from openapi.json by scripts/generate-client.ts — do not edit.\n${astToString(ast)}`;
  if (process.argv.includes('--check')) {
    const current = readFileSync(target, 'utf8');
    if (current !== source) {
      console.error('libs/client/src/schema.ts is stale: run pnpm gen:client');
      process.exit(1);
    }
    console.log('libs/client/src/schema.ts is up to date');
    return;
  }
  writeFileSync(target, source);
  console.log(`wrote ${target}`);
}

void main();
