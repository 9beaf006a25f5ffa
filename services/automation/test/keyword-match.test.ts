import { DEFAULT_RULE_CAPS, type AutomationRule } from '@postbus/contracts';
import { chooseRule } from '../src/matching/choose-rule';
import { containsKeyword, isExactly, matchTrigger } from '../src/matching/keyword-match';
import { renderReply, unknownPlaceholders } from '../src/matching/reply-text';

function rule(over: Partial<AutomationRule> = {}): AutomationRule {
  return {
    id: 'r1',
    enabled: true,
    trigger: { match: 'any', keywords: ['price'] },
    action: { type: 'reply', text: 'Hi {name}!' },
    caps: { ...DEFAULT_RULE_CAPS },
    ...over,
  };
}
const profile = { id: 'prf_1', platform: 'instagram', platformUserId: '1784', handle: 'shop' };
const comment = (text: string, author: { id?: string; name?: string } = {}) => ({
  platform: 'instagram',
  text,
  authorId: author.id ?? '999',
  authorName: author.name ?? 'anna',
});

describe('keyword matching', () => {
  test('when a keyword appears in another case, then it matches (case-insensitive)', () => {
    expect(containsKeyword("What's the PRICE?", 'price')).toBe(true);
    expect(containsKeyword('what is the price', 'Price')).toBe(true);
  });

  test('when a keyword is only part of a longer word, then it does not match', () => {
    expect(containsKeyword('priceless advice', 'price')).toBe(false);
    expect(containsKeyword('this is great', 'hi')).toBe(false);
  });

  test('when a keyword is a phrase, then its words must follow each other', () => {
    expect(containsKeyword('How  much is it?', 'how much')).toBe(true);
    expect(containsKeyword('how is it much', 'how much')).toBe(false);
  });

  test('when a comment uses a hashtag, then the bare keyword matches it but a hashtag keyword needs the hash', () => {
    expect(containsKeyword('count me in #giveaway', 'giveaway')).toBe(true);
    expect(containsKeyword('a giveaway!', '#giveaway')).toBe(false);
    expect(containsKeyword('a #giveaway!', '#giveaway')).toBe(true);
  });

  test('when a keyword is an emoji or in a script written without spaces, then it matches anywhere', () => {
    expect(containsKeyword('love it🔥🔥', '🔥')).toBe(true);
    expect(containsKeyword('这个价格多少', '价格')).toBe(true);
  });

  test('when the match is exact, then the whole comment must be the keyword, punctuation and case aside', () => {
    expect(isExactly('  Link!! ', 'link')).toBe(true);
    expect(isExactly('send the link', 'link')).toBe(false);
  });

  test('when the trigger is any, all or exact, then it fires on one keyword, every keyword, or the whole comment', () => {
    expect(matchTrigger('is shipping free?', { match: 'any', keywords: ['free', 'discount'] })).toEqual(['free']);
    expect(matchTrigger('is shipping free?', { match: 'all', keywords: ['free', 'shipping'] })).toEqual([
      'free',
      'shipping',
    ]);
    expect(matchTrigger('free?', { match: 'all', keywords: ['free', 'shipping'] })).toBeNull();
    expect(matchTrigger('LINK', { match: 'exact', keywords: ['info', 'link'] })).toEqual(['link']);
    expect(matchTrigger('the link', { match: 'exact', keywords: ['link'] })).toBeNull();
    expect(matchTrigger('nothing here', { match: 'any', keywords: ['price'] })).toBeNull();
  });
});

describe('reply text', () => {
  test('when a reply uses {name}, then it becomes the commenter\'s name, or "there" without one', () => {
    expect(renderReply('Hi {name}, check your DMs', { name: 'anna_k' })).toBe('Hi anna_k, check your DMs');
    expect(renderReply('Hi {name}!', { name: null })).toBe('Hi there!');
  });

  test('when a reply uses placeholders the server does not know, then they are named', () => {
    expect(unknownPlaceholders('Hi {name}, {first_name} {}')).toEqual(['first_name', '']);
  });
});

describe('choosing a rule', () => {
  const template = (rules: AutomationRule[], enabled = true) => ({ version: 1 as const, enabled, rules });

  test('when several rules match, then the first enabled one that covers the profile answers', () => {
    const rules = [
      rule({ id: 'off', enabled: false }),
      rule({ id: 'fb', platforms: ['facebook'] }),
      rule({ id: 'other-profile', profileIds: ['prf_2'] }),
      rule({ id: 'first' }),
      rule({ id: 'second' }),
    ];
    const decision = chooseRule(template(rules), profile, comment('price?'));
    expect(decision).toMatchObject({
      kind: 'answer',
      rule: { id: 'first' },
      matchedKeywords: ['price'],
      replyText: 'Hi anna!',
    });
  });

  test('when the account wrote the comment (its id, or its username on Instagram), then it is never answered', () => {
    expect(chooseRule(template([rule()]), profile, comment('price?', { id: '1784' }))).toMatchObject({
      kind: 'skip',
      reason: 'own_comment',
    });
    expect(chooseRule(template([rule()]), profile, comment('price?', { name: 'SHOP' }))).toMatchObject({
      kind: 'skip',
      reason: 'own_comment',
    });
  });

  test('when the template is disabled or nothing matches, then the comment is skipped with the reason', () => {
    expect(chooseRule(template([rule()], false), profile, comment('price?'))).toMatchObject({
      kind: 'skip',
      reason: 'template_disabled',
    });
    expect(chooseRule(template([rule()]), profile, comment('hello'))).toMatchObject({
      kind: 'skip',
      reason: 'no_matching_rule',
    });
  });
});
