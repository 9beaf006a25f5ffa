import { createHmac } from 'node:crypto';
import { parseMetaComments } from '../src/webhooks/comment-payloads';
import { isMetaSignatureValid } from '../src/webhooks/meta-signature';
import { diffTemplates } from '../src/templates/template-diff';
import { checkTemplate } from '../src/templates/template.rules';

const profiles = [
  { id: 'prf_th', platform: 'threads' },
  { id: 'prf_ig', platform: 'instagram' },
  { id: 'prf_fb', platform: 'facebook' },
  { id: 'prf_tt', platform: 'tiktok' },
];
const valid = {
  version: 1,
  rules: [
    {
      id: 'price',
      trigger: { match: 'any', keywords: ['price', 'cost'] },
      action: { type: 'reply', text: 'Hi {name}, see your DMs' },
    },
  ],
};

describe('checking a template', () => {
  test('when a template is valid, then every default is filled in', () => {
    const { problems, template } = checkTemplate({ ...valid, revision: 7, updatedAt: null }, profiles);
    expect(problems).toEqual([]);
    expect(template).toEqual({
      version: 1,
      enabled: true,
      rules: [
        {
          id: 'price',
          enabled: true,
          trigger: { match: 'any', keywords: ['price', 'cost'] },
          action: { type: 'reply', text: 'Hi {name}, see your DMs' },
          caps: { perPost: 25, perHour: 60 },
        },
      ],
    });
  });

  test('when a template has many problems, then every one is listed with its path and nothing is returned', () => {
    const { problems, template } = checkTemplate(
      {
        version: 2,
        colour: 'blue',
        rules: [
          {
            id: 'a',
            trigger: { match: 'sometimes', keywords: [] },
            action: { type: 'reply', text: 'Hi {first_name}' },
          },
          {
            id: 'a',
            platforms: ['tiktok', 'myspace'],
            trigger: { match: 'any', keywords: ['Price', 'price', '  '] },
            action: { type: 'dm', text: 'x' },
            caps: { perPost: 0 },
          },
          {
            id: 'b',
            platforms: ['instagram'],
            profileIds: ['prf_fb', 'prf_missing', 'prf_tt'],
            trigger: { match: 'all', keywords: ['x'] },
            action: { type: 'private_reply', text: 'x' },
          },
          { trigger: { match: 'any', keywords: ['x'] }, action: { type: 'reply', text: 'x' } },
          {
            id: 'c',
            platforms: ['threads'],
            profileIds: ['prf_th'],
            trigger: { match: 'any', keywords: ['x'] },
            action: { type: 'private_reply', text: 'x' },
          },
        ],
      },
      profiles,
    );
    expect(template).toBeNull();
    const at = (path: string) => problems.filter((p) => p.path === path).map((p) => p.message);
    expect(at('version')).toEqual([expect.stringMatching(/must be 1/)]);
    expect(at('colour')).toEqual(['is not a field of the template format']);
    expect(at('rules[0].trigger.match')).toEqual([expect.stringMatching(/one of any, all, exact/)]);
    expect(at('rules[0].trigger.keywords')).toHaveLength(1);
    expect(at('rules[0].action.text')).toEqual([expect.stringMatching(/unknown placeholder \{first_name\}/)]);
    expect(at('rules[1].id')).toEqual([expect.stringMatching(/already the id of rules\[0\]/)]);
    expect(at('rules[1].platforms[0]')).toEqual([expect.stringMatching(/tiktok comments cannot be answered/)]);
    expect(at('rules[1].platforms[1]')).toEqual([expect.stringMatching(/one of/)]);
    expect(at('rules[1].trigger.keywords[1]')).toEqual([expect.stringMatching(/repeats keywords\[0\]/)]);
    expect(at('rules[1].trigger.keywords[2]')).toEqual(['is blank']);
    expect(at('rules[1].action.type')).toEqual([expect.stringMatching(/reply, private_reply/)]);
    expect(at('rules[1].caps.perPost')).toHaveLength(1);
    expect(at('rules[2].profileIds[0]')).toEqual([
      expect.stringMatching(/facebook profile, but the rule is limited to instagram/),
    ]);
    expect(at('rules[2].profileIds[1]')).toEqual(['no profile prf_missing in this account']);
    expect(at('rules[2].profileIds[2]')).toEqual([expect.stringMatching(/tiktok comments cannot be answered/)]);
    expect(at('rules[3].id')).toEqual(['is required']);
    expect(at('rules[4].platforms[0]')).toEqual(['threads does not allow private replies to comments']);
    expect(at('rules[4].profileIds[0]')).toEqual([expect.stringMatching(/threads does not allow private replies/)]);
  });

  test('when the template is not an object, then that is the one problem', () => {
    expect(checkTemplate(null, profiles).problems).toEqual([
      { path: '(template)', message: expect.stringMatching(/JSON object/) },
    ]);
    expect(checkTemplate([valid], profiles).problems).toHaveLength(1);
  });

  test('when a reply for Bluesky is longer than 300 graphemes, then it is refused; {name}, emoji sequences and rules for every platform are not counted against it', () => {
    const withBluesky = [...profiles, { id: 'prf_bs', platform: 'bluesky' }];
    const rule = (id: string, text: string, limits: Record<string, string[]>) => ({
      id,
      trigger: { match: 'any', keywords: ['hi'] },
      action: { type: 'reply', text },
      ...limits,
    });
    const family = '\u{1F468}\u200D\u{1F469}\u200D\u{1F467}'; // one grapheme, 8 UTF-16 units
    const { problems } = checkTemplate(
      {
        version: 1,
        rules: [
          rule('by-platform', 'a'.repeat(301), { platforms: ['bluesky'] }),
          rule('by-profile', 'b'.repeat(301), { profileIds: ['prf_bs'] }),
          rule('at-limit', `Hi {name}, ${'c'.repeat(290)}`, { platforms: ['bluesky'] }),
          rule('emoji', family.repeat(120), { platforms: ['bluesky'] }), // 960 UTF-16 units, 120 graphemes
          rule('everywhere', 'd'.repeat(400), {}),
          rule('threads-only', 'e'.repeat(400), { platforms: ['threads'] }),
        ],
      },
      withBluesky,
    );

    expect(problems).toEqual([
      { path: 'rules[0].action.text', message: 'is 301 graphemes without {name}; a Bluesky reply holds at most 300' },
      { path: 'rules[1].action.text', message: 'is 301 graphemes without {name}; a Bluesky reply holds at most 300' },
    ]);
  });
});

describe('what an import changes', () => {
  const base = checkTemplate(valid, profiles).template!;

  test('when rules are added, changed, removed and reordered, then each change is reported', () => {
    const next = checkTemplate(
      {
        version: 1,
        enabled: false,
        rules: [
          {
            id: 'hours',
            trigger: { match: 'any', keywords: ['open'] },
            action: { type: 'reply', text: 'We open at 9' },
          },
          {
            id: 'price',
            trigger: { match: 'exact', keywords: ['price'] },
            action: { type: 'reply', text: 'Hi {name}, see your DMs' },
            caps: { perPost: 3 },
          },
        ],
      },
      profiles,
    ).template!;
    expect(diffTemplates(base, next)).toEqual([
      { kind: 'template_changed', fields: ['enabled'] },
      { kind: 'rule_added', ruleId: 'hours' },
      { kind: 'rule_changed', ruleId: 'price', fields: ['trigger', 'caps'] },
    ]);
    expect(diffTemplates(next, base)).toEqual(expect.arrayContaining([{ kind: 'rule_removed', ruleId: 'hours' }]));
  });

  test('when the same template is imported again, then nothing changes', () => {
    expect(diffTemplates(base, checkTemplate(valid, profiles).template!)).toEqual([]);
  });

  test('when only the order of the rules changes, then the template reports its order changed', () => {
    const two = checkTemplate(
      { version: 1, rules: [valid.rules[0], { ...valid.rules[0], id: 'second' }] },
      profiles,
    ).template!;
    const swapped = { ...two, rules: [two.rules[1], two.rules[0]] };
    expect(diffTemplates(two, swapped)).toEqual([{ kind: 'template_changed', fields: ['order'] }]);
  });
});

describe('reading Meta comment webhooks', () => {
  const at = new Date('2026-11-02T10:00:00Z');
  const igValue = {
    id: 'c1',
    text: 'Price?',
    from: { id: 'u1', username: 'anna' },
    media: { id: 'm1', media_product_type: 'FEED' },
  };

  test('when an Instagram comment comes with or without the changes[] wrapper, then both read the same', () => {
    const wrapped = parseMetaComments(
      { object: 'instagram', entry: [{ id: 'ig1', time: 1, changes: [{ field: 'comments', value: igValue }] }] },
      at,
    );
    const flat = parseMetaComments(
      { object: 'instagram', entry: [{ id: 'ig1', time: 1, field: 'comments', value: igValue }] },
      at,
    );
    const expected = {
      platform: 'instagram',
      platformAccountId: 'ig1',
      commentId: 'c1',
      postId: 'm1',
      parentId: null,
      text: 'Price?',
      authorId: 'u1',
      authorName: 'anna',
      receivedAt: at.toISOString(),
    };
    expect(wrapped).toEqual([expected]);
    expect(flat).toEqual([expected]);
  });

  test('when a Facebook feed change is a new comment, then it is read; reactions, edits and other objects are not', () => {
    const comment = {
      item: 'comment',
      verb: 'add',
      comment_id: 'p_c',
      post_id: 'pg_p',
      parent_id: 'pg_p',
      message: 'hours?',
      from: { id: 'u2', name: 'Bo' },
      created_time: 1,
    };
    const parsed = parseMetaComments(
      {
        object: 'page',
        entry: [
          {
            id: 'pg',
            time: 1,
            changes: [
              { field: 'feed', value: comment },
              { field: 'feed', value: { ...comment, verb: 'edited' } },
              { field: 'feed', value: { item: 'reaction', verb: 'add' } },
            ],
          },
        ],
      },
      at,
    );
    expect(parsed).toEqual([
      {
        platform: 'facebook',
        platformAccountId: 'pg',
        commentId: 'p_c',
        postId: 'pg_p',
        parentId: null,
        text: 'hours?',
        authorId: 'u2',
        authorName: 'Bo',
        receivedAt: at.toISOString(),
      },
    ]);
    expect(parseMetaComments({ object: 'whatsapp_business_account', entry: [] }, at)).toEqual([]);
    expect(parseMetaComments('nonsense', at)).toEqual([]);
  });

  test('when a Threads replies webhook arrives, then the reply is read for the account it targets', () => {
    const value = {
      id: 'r9',
      username: 'reader',
      text: 'where?',
      media_type: 'TEXT_POST',
      replied_to: { id: 'r1' },
      root_post: { id: 'p1', owner_id: 'th1', username: 'writer' },
    };
    expect(
      parseMetaComments(
        { app_id: 'a', topic: 'moderate', target_id: 'th1', time: 1, values: { value, field: 'replies' } },
        at,
      ),
    ).toEqual([
      {
        platform: 'threads',
        platformAccountId: 'th1',
        commentId: 'r9',
        postId: 'p1',
        parentId: 'r1',
        text: 'where?',
        authorId: null,
        authorName: 'reader',
        receivedAt: at.toISOString(),
      },
    ]);
    expect(
      parseMetaComments({ topic: 'moderate', target_id: 'th1', values: { value, field: 'mentions' } }, at),
    ).toEqual([]);
  });
});

describe('the webhook signature', () => {
  const body = Buffer.from('{"object":"instagram","entry":[]}');
  const sign = (secret: string, bytes: Buffer) => `sha256=${createHmac('sha256', secret).update(bytes).digest('hex')}`;

  test('when the body is signed with the App Secret, then it is valid; another secret, other bytes or no header are not', () => {
    expect(isMetaSignatureValid(body, sign('s3cret', body), 's3cret')).toBe(true);
    expect(isMetaSignatureValid(body, sign('other', body), 's3cret')).toBe(false);
    expect(isMetaSignatureValid(Buffer.concat([body, Buffer.from(' ')]), sign('s3cret', body), 's3cret')).toBe(false);
    expect(isMetaSignatureValid(body, undefined, 's3cret')).toBe(false);
    expect(isMetaSignatureValid(body, 'sha256=abc', 's3cret')).toBe(false);
  });
});
