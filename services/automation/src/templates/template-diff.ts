import type { AutomationRule, TemplateChange } from '@postbus/contracts';
import type { StoredTemplate } from './stored-template';

const RULE_FIELDS = ['name', 'enabled', 'profileIds', 'platforms', 'trigger', 'action', 'caps'] as const;

/** Deep equality of JSON values, whatever the order of object keys. */
function same(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) || Array.isArray(b))
    return Array.isArray(a) && Array.isArray(b) && a.length === b.length && a.every((x, i) => same(x, b[i]));
  if (a && b && typeof a === 'object' && typeof b === 'object') {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    return [...keys].every((k) => same((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
  }
  return a === b;
}

/**
 * What replacing `before` with `after` changes: the template's own fields (and the order of the
 * rules it keeps, since the first matching rule answers), and each rule added, changed or removed.
 */
export function diffTemplates(before: StoredTemplate, after: StoredTemplate): TemplateChange[] {
  const changes: TemplateChange[] = [];
  const oldRules = new Map(before.rules.map((r) => [r.id, r]));
  const newRules = new Map(after.rules.map((r) => [r.id, r]));

  const templateFields: string[] = [];
  if (before.version !== after.version) templateFields.push('version');
  if (before.enabled !== after.enabled) templateFields.push('enabled');
  const keptBefore = before.rules.map((r) => r.id).filter((id) => newRules.has(id));
  const keptAfter = after.rules.map((r) => r.id).filter((id) => oldRules.has(id));
  if (!same(keptBefore, keptAfter)) templateFields.push('order');
  if (templateFields.length) changes.push({ kind: 'template_changed', fields: templateFields });

  for (const rule of after.rules) {
    const old = oldRules.get(rule.id);
    if (!old) changes.push({ kind: 'rule_added', ruleId: rule.id });
    else {
      const fields = RULE_FIELDS.filter((f) => !same(old[f as keyof AutomationRule], rule[f as keyof AutomationRule]));
      if (fields.length) changes.push({ kind: 'rule_changed', ruleId: rule.id, fields: [...fields] });
    }
  }
  for (const rule of before.rules) if (!newRules.has(rule.id)) changes.push({ kind: 'rule_removed', ruleId: rule.id });
  return changes;
}
