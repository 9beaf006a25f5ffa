import {
  AutomationTemplateSchema,
  BLUESKY_TEXT_MAX,
  COMMENT_SOURCE_PLATFORMS,
  DEFAULT_RULE_CAPS,
  PRIVATE_REPLY_PLATFORMS,
  compile,
  isPlatform,
  type AutomationRule,
  type AutomationRuleInput,
  type AutomationTemplateInput,
  type TemplateProblem,
} from '@postbus/contracts';
import { graphemeLength } from '@postbus/platforms';
import { normalizeText } from '../matching/keyword-match';
import { unknownPlaceholders } from '../matching/reply-text';
import { canonicalRule, type StoredTemplate } from './stored-template';

/** The account's profiles, as far as the rules need them. */
export interface KnownProfile {
  id: string;
  platform: string;
}

type ErrorObject = NonNullable<ReturnType<typeof compile>['errors']>[number];

const isSource = (platform: string) => (COMMENT_SOURCE_PLATFORMS as readonly string[]).includes(platform);
const allowsPrivateReply = (platform: string) => (PRIVATE_REPLY_PLATFORMS as readonly string[]).includes(platform);
const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object' && !Array.isArray(v);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : []);

/**
 * Checks a template against its schema and the account's profiles, listing every problem at once;
 * the template comes back with its defaults filled in only when there are none.
 */
export function checkTemplate(
  input: unknown,
  profiles: KnownProfile[],
): { problems: TemplateProblem[]; template: StoredTemplate | null } {
  if (!isObject(input))
    return {
      problems: [{ path: '(template)', message: 'must be a JSON object: { "version": 1, "rules": [ … ] }' }],
      template: null,
    };
  const problems = dedupe([...schemaProblems(input), ...ruleProblems(input, profiles)]);
  return { problems, template: problems.length ? null : normalize(input as AutomationTemplateInput) };
}

function schemaProblems(input: unknown): TemplateProblem[] {
  const check = compile(AutomationTemplateSchema);
  if (check(input)) return [];
  return (check.errors ?? []).filter((e) => !e.schemaPath.includes('/anyOf/')).map(toProblem);
}

function toProblem(e: ErrorObject): TemplateProblem {
  const at = pathOf(e.instancePath);
  const params = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { path: join(at, String(params.missingProperty)), message: 'is required' };
    case 'additionalProperties':
      return { path: join(at, String(params.additionalProperty)), message: 'is not a field of the template format' };
    case 'const':
      return {
        path: at,
        message: `must be ${JSON.stringify(params.allowedValue)}${at === 'version' ? ' (the template format this server reads)' : ''}`,
      };
    case 'enum':
      return { path: at, message: `must be one of ${(params.allowedValues as unknown[]).join(', ')}` };
    case 'anyOf':
      return { path: at, message: 'has the wrong type' };
    case 'uniqueItems':
      return { path: at, message: 'lists the same value twice' };
    default:
      return { path: at || '(template)', message: e.message ?? 'is invalid' };
  }
}

/** What the schema cannot say: unique rule ids, usable keywords, known placeholders, platforms and profiles that can be answered. */
function ruleProblems(input: Record<string, unknown>, profiles: KnownProfile[]): TemplateProblem[] {
  const problems: TemplateProblem[] = [];
  const byId = new Map(profiles.map((p) => [p.id, p]));
  const firstWithId = new Map<string, number>();
  const rules = Array.isArray(input.rules) ? input.rules : [];
  rules.forEach((rule, i) => {
    if (!isObject(rule)) return;
    const at = `rules[${i}]`;
    if (typeof rule.id === 'string') {
      const first = firstWithId.get(rule.id);
      if (first !== undefined)
        problems.push({
          path: `${at}.id`,
          message: `"${rule.id}" is already the id of rules[${first}]; rule ids must be unique`,
        });
      else firstWithId.set(rule.id, i);
    }
    const trigger = isObject(rule.trigger) ? rule.trigger : {};
    const seen = new Map<string, number>();
    strings(trigger.keywords).forEach((keyword, k) => {
      const normal = normalizeText(keyword);
      if (!normal) problems.push({ path: `${at}.trigger.keywords[${k}]`, message: 'is blank' });
      else if (seen.has(normal))
        problems.push({
          path: `${at}.trigger.keywords[${k}]`,
          message: `repeats keywords[${seen.get(normal)}] (keywords are case-insensitive)`,
        });
      else seen.set(normal, k);
    });
    const action = isObject(rule.action) ? rule.action : {};
    if (typeof action.text === 'string') {
      for (const name of unknownPlaceholders(action.text))
        problems.push({
          path: `${at}.action.text`,
          message: `uses the unknown placeholder {${name}}; the only placeholder is {name}`,
        });
      if (!action.text.trim()) problems.push({ path: `${at}.action.text`, message: 'is blank' });
    }
    const privateReply = action.type === 'private_reply';
    const platforms = strings(rule.platforms);
    platforms.forEach((platform, k) => {
      if (!isPlatform(platform)) return; // the schema names the allowed values
      if (!isSource(platform))
        problems.push({
          path: `${at}.platforms[${k}]`,
          message: `${platform} comments cannot be answered (Postbus hears comments on ${COMMENT_SOURCE_PLATFORMS.join(' and ')})`,
        });
      else if (privateReply && !allowsPrivateReply(platform))
        problems.push({
          path: `${at}.platforms[${k}]`,
          message: `${platform} does not allow private replies to comments`,
        });
    });
    strings(rule.profileIds).forEach((id, k) => {
      const profile = byId.get(id);
      const path = `${at}.profileIds[${k}]`;
      if (!profile) problems.push({ path, message: `no profile ${id} in this account` });
      else if (!isSource(profile.platform))
        problems.push({
          path,
          message: `${id} is a ${profile.platform} profile; ${profile.platform} comments cannot be answered`,
        });
      else if (platforms.length && !platforms.includes(profile.platform))
        problems.push({
          path,
          message: `${id} is a ${profile.platform} profile, but the rule is limited to ${platforms.join(', ')}`,
        });
      else if (privateReply && !allowsPrivateReply(profile.platform))
        problems.push({
          path,
          message: `${id} is a ${profile.platform} profile; ${profile.platform} does not allow private replies`,
        });
    });
    problems.push(...replyLengthProblems(rule, at, platforms, byId));
  });
  return problems;
}

/**
 * A public reply longer than Bluesky allows (300 graphemes, the `app.bsky.feed.post` lexicon's
 * maxGraphemes: https://docs.bsky.app/docs/advanced-guides/post-richtext), for a rule limited to Bluesky
 * by its platforms or profiles; counted without `{name}`, which only adds to it. A rule for every
 * platform is not refused: its Bluesky replies fail `text_too_long` when sent.
 */
function replyLengthProblems(
  rule: Record<string, unknown>,
  at: string,
  platforms: string[],
  byId: Map<string, KnownProfile>,
): TemplateProblem[] {
  const action = isObject(rule.action) ? rule.action : {};
  if (action.type !== 'reply' || typeof action.text !== 'string') return [];
  const forBluesky =
    platforms.includes('bluesky') || strings(rule.profileIds).some((id) => byId.get(id)?.platform === 'bluesky');
  const length = graphemeLength(action.text.replace(/\{name\}/g, ''));
  if (!forBluesky || length <= BLUESKY_TEXT_MAX) return [];
  return [
    {
      path: `${at}.action.text`,
      message: `is ${length} graphemes without {name}; a Bluesky reply holds at most ${BLUESKY_TEXT_MAX}`,
    },
  ];
}

function normalize(input: AutomationTemplateInput): StoredTemplate {
  return { version: input.version, enabled: input.enabled ?? true, rules: input.rules.map(normalizeRule) };
}

function normalizeRule(rule: AutomationRuleInput): AutomationRule {
  return canonicalRule({
    ...rule,
    enabled: rule.enabled ?? true,
    caps: {
      perPost: rule.caps?.perPost ?? DEFAULT_RULE_CAPS.perPost,
      perHour: rule.caps?.perHour ?? DEFAULT_RULE_CAPS.perHour,
    },
  });
}

/** `/rules/0/trigger/keywords/2` → `rules[0].trigger.keywords[2]`. */
function pathOf(pointer: string): string {
  return pointer
    .split('/')
    .slice(1)
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .reduce((path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : join(path, segment)), '');
}

function join(path: string, field: string): string {
  return path ? `${path}.${field}` : field;
}

function dedupe(problems: TemplateProblem[]): TemplateProblem[] {
  const seen = new Set<string>();
  return problems.filter((p) => {
    const key = `${p.path}\u0000${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
