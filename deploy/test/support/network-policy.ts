import type { K8sObject } from './kustomize';

/**
 * A small evaluator of Kubernetes NetworkPolicy semantics, enough to ask "may A open a connection
 * to B on port P" of the rendered manifests: a pod selected by no policy of a direction is open
 * in that direction; a selected pod is open only where one of the policies' rules allows.
 */
export interface Endpoint {
  /** A pod's labels (absent: an address outside the cluster). */
  labels?: Record<string, string>;
  namespace?: string;
  /** An IPv4 address, for peers outside the cluster. */
  ip?: string;
  /** The pod's named container ports. */
  ports?: Record<string, number>;
}

type Selector = {
  matchLabels?: Record<string, string>;
  matchExpressions?: { key: string; operator: string; values?: string[] }[];
};

export function selects(selector: Selector | undefined, labels: Record<string, string> = {}): boolean {
  if (!selector) return false;
  const byLabel = Object.entries(selector.matchLabels ?? {}).every(([k, v]) => labels[k] === v);
  const byExpression = (selector.matchExpressions ?? []).every((e) => {
    if (e.operator === 'In') return e.values!.includes(labels[e.key]);
    if (e.operator === 'NotIn') return !e.values!.includes(labels[e.key]);
    if (e.operator === 'Exists') return e.key in labels;
    if (e.operator === 'DoesNotExist') return !(e.key in labels);
    throw new Error(`operator ${e.operator}`);
  });
  return byLabel && byExpression;
}

function ipv4(ip: string): number | undefined {
  const parts = ip.split('.').map(Number);
  return parts.length === 4 && parts.every((p) => Number.isInteger(p) && p >= 0 && p < 256)
    ? parts.reduce((n, p) => n * 256 + p, 0)
    : undefined;
}

function inCidr(ip: string, cidr: string): boolean {
  const [base, bits] = cidr.split('/');
  const a = ipv4(ip);
  const b = ipv4(base);
  if (a === undefined || b === undefined) return false;
  const size = 2 ** (32 - Number(bits));
  return Math.floor(a / size) === Math.floor(b / size);
}

function peerMatches(peer: any, other: Endpoint, policyNamespace: string): boolean {
  if (peer.ipBlock)
    return (
      !!other.ip &&
      inCidr(other.ip, peer.ipBlock.cidr) &&
      !(peer.ipBlock.except ?? []).some((c: string) => inCidr(other.ip!, c))
    );
  if (!other.labels) return false;
  const namespaceOk = peer.namespaceSelector
    ? selects(peer.namespaceSelector, { 'kubernetes.io/metadata.name': other.namespace ?? '' })
    : other.namespace === policyNamespace;
  const podOk = peer.podSelector ? selects(peer.podSelector, other.labels) : true;
  return namespaceOk && podOk;
}

function portMatches(rulePorts: any[] | undefined, port: number, target: Endpoint): boolean {
  if (!rulePorts?.length) return true;
  return rulePorts.some((p) =>
    typeof p.port === 'string' ? target.ports?.[p.port] === port : p.port === port || p.port === undefined,
  );
}

function allowedBy(
  policies: K8sObject[],
  direction: 'Ingress' | 'Egress',
  subject: Endpoint,
  other: Endpoint,
  port: number,
  portOwner: Endpoint,
): boolean {
  const governing = policies.filter(
    (p) =>
      (p.metadata.namespace ?? '') === (subject.namespace ?? '') &&
      p.spec.policyTypes.includes(direction) &&
      selects(p.spec.podSelector, subject.labels),
  );
  if (!governing.length) return true;
  const key = direction === 'Ingress' ? 'ingress' : 'egress';
  const peersKey = direction === 'Ingress' ? 'from' : 'to';
  return governing.some((p) =>
    (p.spec[key] ?? []).some(
      (rule: any) =>
        (!rule[peersKey]?.length ||
          rule[peersKey].some((peer: any) => peerMatches(peer, other, p.metadata.namespace ?? ''))) &&
        portMatches(rule.ports, port, portOwner),
    ),
  );
}

/** True when `from` may open a connection to `to` on `port`: the egress of one and the ingress of the other both allow it. */
export function mayConnect(objects: K8sObject[], from: Endpoint, to: Endpoint, port: number): boolean {
  const policies = objects.filter((o) => o.kind === 'NetworkPolicy');
  const egress = !from.labels || allowedBy(policies, 'Egress', from, to, port, to);
  const ingress = !to.labels || allowedBy(policies, 'Ingress', to, from, port, to);
  return egress && ingress;
}

/** A workload's pod as an endpoint: its template's labels, namespace and named ports. */
export function podOf(objects: K8sObject[], kind: string, name: string): Endpoint {
  const o = objects.find((x) => x.kind === kind && x.metadata.name === name);
  if (!o) throw new Error(`no ${kind} ${name}`);
  const pod = o.spec.template;
  const ports: Record<string, number> = {};
  for (const c of pod.spec.containers) for (const p of c.ports ?? []) if (p.name) ports[p.name] = p.containerPort;
  return { labels: pod.metadata.labels, namespace: o.metadata.namespace, ports };
}
