import { countOf } from '../insights/engagement';

/**
 * Reads a Meta insights answer, `{"data":[{"name":"views","period":"lifetime","values":[{"value":12}]}]}`
 * (or `total_value: {value}`), into metric name → value.
 */
export function readInsightValues(body: Record<string, unknown>): Map<string, number> {
  const out = new Map<string, number>();
  const data = Array.isArray(body.data) ? body.data : [];
  for (const entry of data as { name?: unknown; values?: { value?: unknown }[]; total_value?: { value?: unknown } }[]) {
    if (typeof entry?.name !== 'string') continue;
    const value = countOf(entry.total_value?.value ?? entry.values?.[entry.values.length - 1]?.value);
    if (value !== null) out.set(entry.name, value);
  }
  return out;
}
