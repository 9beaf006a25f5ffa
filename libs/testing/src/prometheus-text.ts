/**
 * Reads one sample from a Prometheus text exposition: the value of the first series named
 * `name` whose labels include `labels` (in any order), or undefined when there is none.
 */
export function metricSample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(`${name}{`) && !line.startsWith(`${name} `)) continue;
    const labelText = line.slice(name.length).match(/^\{(.*)\}/)?.[1] ?? '';
    const have = new Map([...labelText.matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((m) => [m[1], m[2]]));
    if (Object.entries(labels).every(([k, v]) => have.get(k) === v))
      return Number(line.slice(line.lastIndexOf(' ') + 1));
  }
  return undefined;
}
