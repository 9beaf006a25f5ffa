import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAllDocuments } from 'yaml';

/**
 * A small renderer of the kustomize subset deploy/kubernetes uses, so CI can check every object
 * without a kustomize binary: resources (files and folders), components, namespace, images,
 * replicas, strategic-merge patches (lists of named items merge by name, other lists are
 * replaced), and secret/config map generators from literals without name hashes. A field outside
 * the subset fails the render, so the manifests cannot drift from what is checked.
 */
export interface K8sObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; labels?: Record<string, string>; annotations?: Record<string, string> };
  [key: string]: any;
}

const KUSTOMIZATION_FIELDS = new Set([
  'apiVersion',
  'kind',
  'resources',
  'components',
  'namespace',
  'images',
  'replicas',
  'patches',
  'secretGenerator',
  'configMapGenerator',
  'generatorOptions',
]);
const CLUSTER_SCOPED = new Set([
  'Namespace',
  'ClusterRole',
  'ClusterRoleBinding',
  'CustomResourceDefinition',
  'StorageClass',
  'PriorityClass',
  'IngressClass',
]);

export function readYamlDocuments(file: string): any[] {
  return parseAllDocuments(readFileSync(file, 'utf8'), { merge: true })
    .map((doc) => {
      if (doc.errors.length) throw new Error(`${file}: ${doc.errors[0].message}`);
      return doc.toJS();
    })
    .filter((doc) => doc !== null && doc !== undefined);
}

function loadKustomization(dir: string, kind: 'Kustomization' | 'Component'): any {
  const file = join(dir, 'kustomization.yaml');
  if (!existsSync(file)) throw new Error(`${dir} has no kustomization.yaml`);
  const [k] = readYamlDocuments(file);
  if (k.kind !== kind) throw new Error(`${file}: expected kind ${kind}, found ${k.kind}`);
  for (const key of Object.keys(k))
    if (!KUSTOMIZATION_FIELDS.has(key))
      throw new Error(`${file}: ${key} is outside the kustomize subset this renderer checks`);
  return k;
}

function generate(dir: string, k: any): K8sObject[] {
  const generators = [
    ...(k.secretGenerator ?? []).map((g: any) => ({ ...g, kind: 'Secret' })),
    ...(k.configMapGenerator ?? []).map((g: any) => ({ ...g, kind: 'ConfigMap' })),
  ];
  if (generators.length && k.generatorOptions?.disableNameSuffixHash !== true)
    throw new Error(`${dir}: generators need generatorOptions.disableNameSuffixHash: true here`);
  return generators.map((g: any) => {
    for (const key of Object.keys(g))
      if (!['name', 'literals', 'kind', 'type'].includes(key))
        throw new Error(`${dir}: generator field ${key} is outside the subset`);
    const pairs: [string, string][] = (g.literals ?? []).map((l: string) => {
      const at = l.indexOf('=');
      return [l.slice(0, at), l.slice(at + 1)];
    });
    return g.kind === 'Secret'
      ? {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: g.name },
          type: g.type ?? 'Opaque',
          data: Object.fromEntries(pairs.map(([key, v]) => [key, Buffer.from(v).toString('base64')])),
        }
      : { apiVersion: 'v1', kind: 'ConfigMap', metadata: { name: g.name }, data: Object.fromEntries(pairs) };
  });
}

const isPlainObject = (v: unknown): v is Record<string, any> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Strategic merge as kustomize does it for the fields we patch. */
export function strategicMerge(target: any, patch: any): any {
  if (!isPlainObject(target) || !isPlainObject(patch)) return structuredClone(patch);
  const out: Record<string, any> = { ...target };
  for (const [key, value] of Object.entries(patch)) {
    if (value === null) delete out[key];
    else if (
      Array.isArray(value) &&
      Array.isArray(out[key]) &&
      value.every((v) => isPlainObject(v) && 'name' in v) &&
      out[key].every((v: any) => isPlainObject(v) && 'name' in v)
    ) {
      const merged = [...out[key]];
      for (const item of value) {
        const at = merged.findIndex((m: any) => m.name === item.name);
        if (item.$patch === 'delete') {
          if (at >= 0) merged.splice(at, 1);
        } else if (at >= 0) merged[at] = strategicMerge(merged[at], item);
        else merged.push(structuredClone(item));
      }
      out[key] = merged;
    } else if (isPlainObject(value) && isPlainObject(out[key])) out[key] = strategicMerge(out[key], value);
    else out[key] = structuredClone(value);
  }
  return out;
}

function applyPatches(dir: string, k: any, objects: K8sObject[]): K8sObject[] {
  let result = objects;
  for (const p of k.patches ?? []) {
    if (Object.keys(p).some((key) => key !== 'path'))
      throw new Error(`${dir}: only file patches ({ path }) are in the subset`);
    for (const patch of readYamlDocuments(join(dir, p.path))) {
      const matches = (o: K8sObject) =>
        o.kind === patch.kind && o.metadata.name === patch.metadata?.name && o.apiVersion === patch.apiVersion;
      if (!result.some(matches)) throw new Error(`${dir}/${p.path}: no ${patch.kind} ${patch.metadata?.name} to patch`);
      result =
        patch.$patch === 'delete'
          ? result.filter((o) => !matches(o))
          : result.map((o) => (matches(o) ? strategicMerge(o, patch) : o));
    }
  }
  return result;
}

function applyComponent(dir: string, objects: K8sObject[]): K8sObject[] {
  const k = loadKustomization(dir, 'Component');
  for (const key of ['namespace', 'images', 'replicas'])
    if (k[key]) throw new Error(`${dir}: ${key} belongs in an overlay, not a component`);
  const withOwn = [
    ...objects,
    ...(k.resources ?? []).flatMap((r: string) => loadResource(resolve(dir, r))),
    ...generate(dir, k),
  ];
  return applyPatches(dir, k, withOwn);
}

function loadResource(path: string): K8sObject[] {
  return statSync(path).isDirectory() ? renderKustomization(path) : readYamlDocuments(path);
}

function setImages(k: any, objects: K8sObject[]): void {
  for (const image of k.images ?? []) {
    for (const o of objects) {
      const spec = o.spec?.template?.spec ?? o.spec?.jobTemplate?.spec?.template?.spec;
      for (const c of [...(spec?.containers ?? []), ...(spec?.initContainers ?? [])]) {
        const name = String(c.image).replace(/[@:][^/]*$/, '');
        if (name !== image.name) continue;
        c.image = `${image.newName ?? image.name}${image.newTag ? `:${image.newTag}` : ''}${image.digest ? `@${image.digest}` : ''}`;
      }
    }
  }
}

/** Renders a kustomization folder (base or overlay) into its Kubernetes objects. */
export function renderKustomization(dir: string): K8sObject[] {
  const k = loadKustomization(dir, 'Kustomization');
  let objects: K8sObject[] = [
    ...(k.resources ?? []).flatMap((r: string) => loadResource(resolve(dir, r))),
    ...generate(dir, k),
  ];
  objects = structuredClone(objects);
  for (const c of k.components ?? []) objects = applyComponent(resolve(dir, c), objects);
  objects = applyPatches(dir, k, objects);
  if (k.namespace) for (const o of objects) if (!CLUSTER_SCOPED.has(o.kind)) o.metadata.namespace = k.namespace;
  setImages(k, objects);
  for (const r of k.replicas ?? []) {
    const target = objects.find((o) => ['Deployment', 'StatefulSet'].includes(o.kind) && o.metadata.name === r.name);
    if (!target) throw new Error(`${dir}: replicas for unknown ${r.name}`);
    target.spec.replicas = r.count;
  }
  const seen = new Set<string>();
  for (const o of objects) {
    const id = `${o.kind}/${o.metadata.namespace ?? ''}/${o.metadata.name}`;
    if (seen.has(id)) throw new Error(`${dir}: ${id} is defined twice`);
    seen.add(id);
  }
  return objects;
}
