import {
  MAX_USAGE_HEADER_CHARS,
  facebookErrorFromResponse,
  graphRetryAfterMs,
  graphThrottle,
  instagramErrorFromResponse,
  readGraphUsage,
  threadsErrorFromResponse,
} from '../src';

const headers = (h: Record<string, string>) => new Headers(h);
const meta = (code: number, subcode?: number) => ({
  error: { message: `(#${code}) Limit`, type: 'OAuthException', code, ...(subcode && { error_subcode: subcode }) },
});
const buc = (entries: unknown[]) => JSON.stringify({ '1234567890': entries });

describe('reading Meta usage headers', () => {
  test('when X-App-Usage reports its three percentages, then the highest is the usage', () => {
    expect(readGraphUsage(headers({ 'x-app-usage': '{"call_count":28,"total_time":104,"total_cputime":25}' }))).toEqual(
      { usagePct: 104 },
    );
  });

  test('when X-Business-Use-Case-Usage holds several objects, then the longest estimated_time_to_regain_access (minutes) wins', () => {
    const value = JSON.stringify({
      '111': [
        { type: 'pages', call_count: 100, total_cputime: 10, total_time: 12, estimated_time_to_regain_access: 19 },
      ],
      '222': [
        { type: 'instagram', call_count: 40, total_cputime: 5, total_time: 5, estimated_time_to_regain_access: 0 },
      ],
    });
    expect(readGraphUsage(headers({ 'x-business-use-case-usage': value }))).toEqual({
      usagePct: 100,
      regainAccessMs: 19 * 60_000,
    });
  });

  test('when X-Ad-Account-Usage is sent, then its percentage and reset_time_duration (seconds) count', () => {
    expect(
      readGraphUsage(
        headers({
          'x-ad-account-usage':
            '{"acc_id_util_pct":101.5,"reset_time_duration":90,"ads_api_access_tier":"standard_access"}',
        }),
      ),
    ).toEqual({
      usagePct: 101.5,
      regainAccessMs: 90_000,
    });
  });

  test.each([
    ['not JSON', '{call_count: 100'],
    ['a JSON array', '[100, 100]'],
    ['a JSON string', '"100"'],
    ['numbers as strings', '{"call_count":"100","total_time":"lots"}'],
    ['negative and absurd numbers', '{"call_count":-5,"total_time":1e308,"total_cputime":100001}'],
    ['nested objects', '{"call_count":{"valueOf":100}}'],
  ])('when X-App-Usage is %s, then it is ignored', (_what, value) => {
    expect(readGraphUsage(headers({ 'x-app-usage': value }))).toEqual({});
  });

  test.each([
    ['entries that are not arrays', JSON.stringify({ a: 'x', b: 5, c: { estimated_time_to_regain_access: 3 } })],
    ['entries that are not objects', buc([null, 7, 'x', [1]])],
    ['a wait that is not a number', buc([{ estimated_time_to_regain_access: '60' }])],
    ['a wait beyond a week', buc([{ estimated_time_to_regain_access: 7 * 24 * 60 + 1 }])],
    ['a negative wait', buc([{ estimated_time_to_regain_access: -1 }])],
  ])('when X-Business-Use-Case-Usage has %s, then those parts are ignored', (_what, value) => {
    expect(readGraphUsage(headers({ 'x-business-use-case-usage': value })).regainAccessMs).toBeUndefined();
  });

  test('when a usage header is larger than any real one, then it is not parsed at all', () => {
    const huge = JSON.stringify({ call_count: 100, pad: 'x'.repeat(MAX_USAGE_HEADER_CHARS) });
    const hugeBuc = buc(Array.from({ length: 2000 }, () => ({ call_count: 100, estimated_time_to_regain_access: 30 })));
    expect(hugeBuc.length).toBeGreaterThan(MAX_USAGE_HEADER_CHARS);
    expect(readGraphUsage(headers({ 'x-app-usage': huge, 'x-business-use-case-usage': hugeBuc }))).toEqual({});
    expect(graphRetryAfterMs(headers({ 'x-business-use-case-usage': hugeBuc }))).toBeUndefined();
  });

  test('when a business use case header lists many objects, then only the first few are read', () => {
    const many = Object.fromEntries(
      Array.from({ length: 60 }, (_, i) => [String(i), [{ estimated_time_to_regain_access: i + 1 }]]),
    );
    expect(readGraphUsage(headers({ 'x-business-use-case-usage': JSON.stringify(many) })).regainAccessMs).toBe(
      32 * 60_000,
    );
  });
});

describe('telling a throttle from other Graph errors', () => {
  test.each([
    [4, 'app'],
    [341, 'app'],
    [17, 'account'],
    [32, 'account'],
    [613, 'account'],
    [80001, 'account'],
    [80002, 'account'],
    [80014, 'account'],
  ] as const)('when Graph answers code %i, then it is a rate-limit throttle of the %s', (code, scope) => {
    expect(graphThrottle(400, meta(code).error, headers({}))).toEqual({
      kind: 'rate_limit',
      scope,
      windowMs: 3_600_000,
    });
  });

  test.each([100, 190, 2, 80015, 9])('when Graph answers code %i, then it is not a throttle', (code) => {
    expect(graphThrottle(400, meta(code).error, headers({}))).toBeUndefined();
  });

  test('when a throttle comes with usage headers, then it carries the wait and the usage they report', () => {
    const h = headers({
      'x-app-usage': '{"call_count":120}',
      'x-business-use-case-usage': buc([{ type: 'pages', call_count: 100, estimated_time_to_regain_access: 7 }]),
    });
    expect(graphThrottle(400, meta(32).error, h)).toMatchObject({
      scope: 'account',
      waitMs: 7 * 60_000,
      usagePct: 120,
    });
  });

  test('when Instagram, Facebook and Threads answer a throttle, then their errors carry it (Threads with its 24-hour window)', () => {
    const failure = { status: 400, headers: headers({ 'x-app-usage': '{"call_count":100}' }), body: meta(4) };
    expect(instagramErrorFromResponse(failure)).toMatchObject({
      transient: true,
      throttle: { kind: 'rate_limit', scope: 'app', usagePct: 100, windowMs: 3_600_000 },
    });
    expect(facebookErrorFromResponse({ ...failure, body: meta(32) })).toMatchObject({
      transient: true,
      throttle: { scope: 'account' },
    });
    expect(threadsErrorFromResponse({ ...failure, body: meta(17) })).toMatchObject({
      transient: true,
      throttle: { scope: 'account', windowMs: 86_400_000 },
    });
  });

  test('when Instagram answers its publishing limit (9/2207042), then the error waits for a slot instead of failing', () => {
    const err = instagramErrorFromResponse({ status: 400, headers: headers({}), body: meta(9, 2207042) });
    expect(err).toMatchObject({ transient: true, throttle: { kind: 'publishing_quota', scope: 'account' } });
    expect(err.message).toMatch(/limit of API-published posts.*waits until a slot frees/);
  });

  test('when Instagram sends code 4 with its own spam-protection subcode, then it is a refusal, not a throttle', () => {
    expect(instagramErrorFromResponse({ status: 400, headers: headers({}), body: meta(4, 2207051) })).toMatchObject({
      transient: false,
      throttle: undefined,
    });
  });
});
