import type { Resolver } from '@postbus/net';
import {
  assertMastodonStatus,
  callMastodon,
  isPlatformError,
  MASTODON_DEFAULT_LIMITS,
  mastodonBaseUrl,
  mastodonInstanceHost,
  mastodonTextLength,
  type PlatformError,
} from '../src';

describe('counting a Mastodon status', () => {
  test('when the text has links and remote mentions, then each link counts 23 and a mention its username only, by grapheme, with the content warning added', () => {
    expect(mastodonTextLength('plain text')).toBe(10);
    expect(mastodonTextLength(`see https://example.com/${'a'.repeat(100)}`)).toBe(4 + 23);
    // A link's closing punctuation is text, not part of the link.
    expect(mastodonTextLength('(https://example.com/a).')).toBe(1 + 23 + 2);
    expect(mastodonTextLength('hi @alice@social.example.org and @bob')).toBe('hi @alice and @bob'.length);
    expect(mastodonTextLength('👍🏽👍🏽', 'cw')).toBe(4);
  });
});

describe('naming an instance', () => {
  test('when a person types an address, then its host is kept; paths, spaces and credentials are not instance addresses', () => {
    expect(mastodonInstanceHost('Mastodon.Social')).toBe('mastodon.social');
    expect(mastodonInstanceHost('https://mastodon.social/')).toBe('mastodon.social');
    expect(mastodonInstanceHost('@alice@hachyderm.io')).toBe('hachyderm.io');
    expect(mastodonInstanceHost('https://a.example/path')).toBeUndefined();
    expect(mastodonInstanceHost('user:pass@a.example')).toBeUndefined();
    expect(mastodonInstanceHost('not an instance')).toBeUndefined();
  });
});

describe('calling an instance a person named', () => {
  const instances = (addresses: string[]) => {
    const resolve: Resolver = async () =>
      addresses.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
    return { baseUrlTemplate: 'https://{instance}', resolve };
  };

  test.each([['10.0.0.5'], ['169.254.169.254'], ['127.0.0.1'], ['::1']])(
    'when the instance resolves to %s, then no request is made and the refusal is final',
    async (address) => {
      const err = (await callMastodon(
        { instances: instances([address]), instance: 'evil.example', timeoutMs: 2000 },
        { method: 'GET', path: '/api/v2/instance' },
      ).catch((e: unknown) => e)) as PlatformError;
      expect(isPlatformError(err)).toBe(true);
      expect(err).toMatchObject({ platform: 'mastodon', transient: false, code: 'instance_refused' });
      expect(err.message).toMatch(/^The Mastodon instance evil\.example \(GET \/api\/v2\/instance\) cannot be reached/);
    },
  );
});

describe("checking a status against an instance's limits", () => {
  const codeOf = (fn: () => void) => {
    try {
      fn();
      return undefined;
    } catch (err) {
      return (err as PlatformError).code;
    }
  };
  const limits = { ...MASTODON_DEFAULT_LIMITS, maxCharacters: 100, maxMediaAttachments: 2 };

  test('when a status breaks one of the limits the instance announced, then it is refused with a code before any call', () => {
    expect(codeOf(() => assertMastodonStatus({ status: 'x'.repeat(100) }, limits))).toBeUndefined();
    expect(codeOf(() => assertMastodonStatus({ status: 'x'.repeat(95), spoilerText: 'sixsix' }, limits))).toBe(
      'text_too_long',
    );
    expect(codeOf(() => assertMastodonStatus({ status: 'three', mediaIds: ['1', '2', '3'] }, limits))).toBe(
      'too_many_media',
    );
    expect(codeOf(() => assertMastodonStatus({ status: ' ' }, limits))).toBe('empty_status');
    expect(
      codeOf(() =>
        assertMastodonStatus(
          { status: 'vote', mediaIds: ['1'], poll: { options: ['a', 'b'], expiresIn: 600 } },
          limits,
        ),
      ),
    ).toBe('poll_with_media');
    expect(
      codeOf(() =>
        assertMastodonStatus({ status: 'vote', poll: { options: ['a', 'b', 'c', 'd', 'e'], expiresIn: 600 } }, limits),
      ),
    ).toBe('poll_invalid');
    expect(
      codeOf(() => assertMastodonStatus({ status: 'vote', poll: { options: ['a', 'b'], expiresIn: 60 } }, limits)),
    ).toBe('poll_invalid');
  });

  test('when an instance name is not a host, then no URL is made of it', () => {
    expect(mastodonBaseUrl({ baseUrlTemplate: 'https://{instance}' }, 'mastodon.social')).toBe(
      'https://mastodon.social',
    );
    expect(codeOf(() => mastodonBaseUrl({ baseUrlTemplate: 'https://{instance}' }, 'evil.example/#'))).toBe(
      'invalid_instance',
    );
  });
});
