import { AUTOMATION_TEMPLATE_VERSION, type AutomationRule, type AutomationTemplate } from '@postbus/contracts';

/** A template as stored: every default filled in, without its revision. */
export type StoredTemplate = Omit<AutomationTemplate, 'revision' | 'updatedAt'>;

/** What an account has before its first import: nothing to answer. */
export const EMPTY_TEMPLATE: StoredTemplate = { version: AUTOMATION_TEMPLATE_VERSION, enabled: true, rules: [] };

export function templateView(template: StoredTemplate, revision: number, updatedAt: Date | null): AutomationTemplate {
  return {
    version: template.version,
    enabled: template.enabled,
    rules: template.rules,
    revision,
    updatedAt: updatedAt ? updatedAt.toISOString() : null,
  };
}

/** The rule with its fields in their documented order (stored JSON does not keep it). */
export function canonicalRule(rule: AutomationRule): AutomationRule {
  return {
    id: rule.id,
    ...(rule.name !== undefined && { name: rule.name }),
    enabled: rule.enabled,
    ...(rule.profileIds && { profileIds: rule.profileIds }),
    ...(rule.platforms && { platforms: rule.platforms }),
    trigger: { match: rule.trigger.match, keywords: rule.trigger.keywords },
    action: { type: rule.action.type, text: rule.action.text },
    caps: { perPost: rule.caps.perPost, perHour: rule.caps.perHour },
  };
}

export function canonicalTemplate(template: StoredTemplate): StoredTemplate {
  return { version: template.version, enabled: template.enabled, rules: template.rules.map(canonicalRule) };
}
