import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import type { K8sObject } from './kustomize';

/** Schema errors of each object (kubernetes-models is ESM only: validated in a child process). */
export function schemaErrors(objects: K8sObject[]): { kind: string; name: string; error: string | null }[] {
  const out = execFileSync(process.execPath, [join(__dirname, 'validate-kubernetes.mjs')], {
    input: JSON.stringify(objects),
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(out);
}
