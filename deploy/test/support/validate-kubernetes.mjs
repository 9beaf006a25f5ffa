/**
 * Validates Kubernetes objects against the API schemas shipped by kubernetes-models (and its
 * KEDA and Prometheus Operator packages). ESM only, so the jest tests run it as a child process:
 * a JSON array of objects on stdin, a JSON array of { kind, name, error } on stdout.
 */
const MODULES = {
  v1: 'kubernetes-models/v1',
  'apps/v1': 'kubernetes-models/apps/v1',
  'policy/v1': 'kubernetes-models/policy/v1',
  'networking.k8s.io/v1': 'kubernetes-models/networking.k8s.io/v1',
  'autoscaling/v2': 'kubernetes-models/autoscaling/v2',
  'batch/v1': 'kubernetes-models/batch/v1',
  'keda.sh/v1alpha1': '@kubernetes-models/keda/keda.sh/v1alpha1',
  'monitoring.coreos.com/v1': '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1',
};

async function modelFor(apiVersion, kind) {
  const base = MODULES[apiVersion];
  if (!base) throw new Error(`no schema for apiVersion ${apiVersion}`);
  const module = await import(`${base}/${kind}`).catch(() => undefined);
  const Model = module?.[kind];
  if (!Model) throw new Error(`no schema for ${apiVersion} ${kind}`);
  return Model;
}

let input = '';
for await (const chunk of process.stdin) input += chunk;
const results = [];
for (const object of JSON.parse(input)) {
  const name = object?.metadata?.name;
  try {
    const Model = await modelFor(object.apiVersion, object.kind);
    new Model(object).validate();
    results.push({ kind: object.kind, name, error: null });
  } catch (err) {
    results.push({ kind: object?.kind, name, error: err.message });
  }
}
process.stdout.write(JSON.stringify(results));
