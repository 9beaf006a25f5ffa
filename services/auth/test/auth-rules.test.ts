import type { AccountSummary } from '@postbus/contracts';
import { isEntitled, quotasFor } from '../src/accounts/plans';
import { generateApiKey, hashKey, lookupOf, sameHash } from '../src/keys/api-key';
import { html } from '../src/entry-points/pages/html';
import { readKeyForm, toIssueKeyInput } from '../src/entry-points/pages/key-form';
import { safeNext } from '../src/entry-points/pages/page-context';
import { settingsPage } from '../src/entry-points/pages/settings.page';

const now = new Date('2030-01-15T12:00:00Z');
const owner = { accountId: 'acc_1', userId: 'usr_1' };

describe('plans', () => {
  const trial = (endsInMs: number) => ({
    plan: 'trial',
    tester: false,
    trial_ends_at: new Date(now.getTime() + endsInMs),
  });

  test.each([
    ['a running trial', trial(1000), true],
    ['a trial that just ended', trial(0), false],
    ['an ended trial of a tester', { ...trial(-1000), tester: true }, true],
    ['an ended trial on pro', { ...trial(-1000), plan: 'pro' }, true],
    ['an expired plan', { ...trial(1000), plan: 'expired' }, false],
    ['an unknown plan', { ...trial(1000), plan: 'gold' }, false],
  ])('when the account has %s, then entitled is %s', (_what, account, expected) => {
    expect(isEntitled(account, now)).toBe(expected);
  });

  test('when quotas are asked for, then trial, paid and expired plans get their configured figures', () => {
    const config = {
      QUOTA_TRIAL_POSTS: 100,
      QUOTA_TRIAL_STORAGE_MB: 1024,
      QUOTA_PRO_POSTS: 10_000,
      QUOTA_PRO_STORAGE_MB: 51_200,
    };
    expect(quotasFor('trial', config)).toEqual({ scheduledPostsPerMonth: 100, storageBytes: 1024 ** 3 });
    expect(quotasFor('business', config)).toEqual({ scheduledPostsPerMonth: 10_000, storageBytes: 50 * 1024 ** 3 });
    expect(quotasFor('expired', config)).toEqual({ scheduledPostsPerMonth: 0, storageBytes: 0 });
  });
});

describe('API key format', () => {
  test('when keys are generated, then they are sk_live_ and 43 base62 characters, unique, found by their lookup and compared by hash', () => {
    const keys = Array.from({ length: 200 }, () => generateApiKey());
    for (const k of keys) {
      expect(k.key).toMatch(/^sk_live_[0-9A-Za-z]{43}$/);
      expect(k.lookup).toBe(k.key.slice(8, 20));
      expect(sameHash(hashKey(k.key), k.hash)).toBe(true);
    }
    expect(new Set(keys.map((k) => k.key)).size).toBe(200);
    expect(sameHash(hashKey(keys[0].key), keys[1].hash)).toBe(false);
  });

  test('when a token is too short or lacks the live prefix, then it has no lookup', () => {
    expect(lookupOf('sk_live_short')).toBeUndefined();
    expect(lookupOf(`sk_test_${'a'.repeat(43)}`)).toBeUndefined();
  });
});

describe('pages', () => {
  test('when values are interpolated into a page, then they are escaped once and nested markup is kept', () => {
    const inner = html`<b>${'a & b'}</b>`;
    expect(html`<p title="${'"><script>'}">${inner}${['<i>', 1]}</p>`.value).toBe(
      '<p title="&quot;&gt;&lt;script&gt;">' + '<b>a &amp; b</b>&lt;i&gt;1</p>',
    );
  });

  test('when a key has a hostile name, then the settings page shows it as text', () => {
    const account: AccountSummary = {
      accountId: 'acc_1',
      plan: 'trial',
      tester: false,
      disabled: false,
      trialEndsAt: now.toISOString(),
      createdAt: now.toISOString(),
      entitled: true,
      quotas: { scheduledPostsPerMonth: 1, storageBytes: 1 },
    };
    const page = settingsPage({
      nonce: 'n',
      csrf: 't',
      email: 'a@example.com',
      account,
      keys: [
        {
          keyId: 'key_1',
          accountId: 'acc_1',
          userId: 'usr_1',
          name: '<img src=x onerror=alert(1)>',
          prefix: 'sk_live_abc…',
          scopes: ['post:read'],
          profileIds: 'all',
          status: 'active',
          createdAt: now.toISOString(),
          expiresAt: null,
          lastUsedAt: null,
          revokedAt: null,
        },
      ],
      form: readKeyForm({}),
    });
    expect(page).not.toContain('<img src=x');
    expect(page).toContain('&lt;img src=x onerror=alert(1)&gt;');
  });

  test.each([
    ['//evil.example/'],
    ['https://evil.example/'],
    ['/\\evil.example'],
    ['javascript:alert(1)'],
    [undefined],
  ])('when the next address is %s, then sign-in goes to settings', (next) => {
    expect(safeNext(next)).toBe('/settings');
  });

  test('when the next address is a page of this site, then sign-in goes there', () => {
    expect(safeNext('/settings?tab=keys')).toBe('/settings?tab=keys');
  });
});

describe('the create-key form', () => {
  test('when profiles are ticked and typed, then the key is limited to all of them once, with the chosen expiry', () => {
    const form = readKeyForm({
      name: ' bot ',
      scopes: ['post:read', 'post:write'],
      restriction: 'list',
      profileIds: ['prf_a', 'prf_b'],
      otherProfileIds: 'prf_b, prf_c',
      expiresInDays: '30',
    });
    const input = toIssueKeyInput(form, owner, new Set(['prf_a', 'prf_b', 'prf_c']), now);
    expect(input).toEqual({
      ...owner,
      name: ' bot ',
      scopes: ['post:read', 'post:write'],
      profileIds: ['prf_a', 'prf_b', 'prf_c'],
      expiresAt: '2030-02-14T12:00:00.000Z',
    });
  });

  test('when one scope comes as a single field and the restriction is all, then the key has that scope, all profiles and no expiry', () => {
    const input = toIssueKeyInput(
      readKeyForm({ name: 'x', scopes: 'media:write', restriction: 'all', profileIds: 'prf_a' }),
      owner,
      undefined,
      now,
    );
    expect(input).toMatchObject({ scopes: ['media:write'], profileIds: 'all', expiresAt: undefined });
  });

  test.each([
    ['no scope', { name: 'x', restriction: 'all' }, 'at least one scope'],
    ['a list without profiles', { name: 'x', scopes: 'post:read', restriction: 'list' }, 'at least one profile'],
    [
      'a profile of someone else',
      { name: 'x', scopes: 'post:read', restriction: 'list', otherProfileIds: 'prf_theirs' },
      'prf_theirs',
    ],
    ['an expiry not on the list', { name: 'x', scopes: 'post:read', expiresInDays: '-3' }, 'expires'],
  ])('when the form has %s, then it is refused with validation_error', (_what, body, message) => {
    let refused: unknown;
    try {
      toIssueKeyInput(readKeyForm(body), owner, new Set(['prf_mine']), now);
    } catch (err) {
      refused = err;
    }
    expect(refused).toMatchObject({ code: 'validation_error', message: expect.stringContaining(message) });
  });
});
