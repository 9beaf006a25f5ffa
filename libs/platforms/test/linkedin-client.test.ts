import {
  assertLinkedInPost,
  createLinkedInPost,
  linkedInCommentary,
  linkedInError,
  linkedInOAuth,
  linkedInPlainText,
  linkedInPostBody,
} from '../src';

describe('LinkedIn commentary as little text', () => {
  test('when a caption holds reserved characters, then each is escaped with a backslash, a #word stays a hashtag, and the escape reads back as written', () => {
    const caption = 'Launch (beta) @team #news # alone [x] {y} <z> *a* _b_ ~c~ | \\ #1';

    const commentary = linkedInCommentary(caption);

    expect(commentary).toBe(
      'Launch \\(beta\\) \\@team #news \\# alone \\[x\\] \\{y\\} \\<z\\> \\*a\\* \\_b\\_ \\~c\\~ \\| \\\\ #1',
    );
    expect(linkedInPlainText(commentary)).toBe(caption);
  });

  test('when a post carries one image or several, then content is media or multiImage with alt texts only where given', () => {
    const base = { author: 'urn:li:person:1', text: 'x' };
    expect(
      linkedInPostBody({ ...base, content: { kind: 'image', images: [{ urn: 'urn:li:image:a', altText: 'A' }] } })
        .content,
    ).toEqual({
      media: { id: 'urn:li:image:a', altText: 'A' },
    });
    expect(
      linkedInPostBody({
        ...base,
        content: { kind: 'image', images: [{ urn: 'urn:li:image:a' }, { urn: 'urn:li:image:b', altText: 'B' }] },
      }).content,
    ).toEqual({ multiImage: { images: [{ id: 'urn:li:image:a' }, { id: 'urn:li:image:b', altText: 'B' }] } });
  });
});

describe('LinkedIn errors', () => {
  const headers = (h: Record<string, string> = {}) => new Headers(h);

  test('when LinkedIn answers 401, 403, 426, 429 or 5xx, then each maps once to its class: reconnect, permanent, version, deferral, retry', () => {
    const body = (code: string) => ({ status: 0, serviceErrorCode: 65601, code, message: `said ${code}` });
    const revoked = linkedInError('POST /rest/posts', true, 401, headers(), body('REVOKED_ACCESS_TOKEN'));
    const denied = linkedInError('POST /rest/posts', true, 403, headers(), body('ACCESS_DENIED'));
    const version = linkedInError('POST /rest/posts', true, 426, headers(), body('NONEXISTENT_VERSION'));
    const throttled = linkedInError(
      'POST /rest/posts',
      true,
      429,
      headers({ 'retry-after': '120' }),
      body('TOO_MANY_REQUESTS'),
    );
    const failed = linkedInError('POST /rest/posts', true, 503, headers(), undefined);

    expect(revoked).toMatchObject({ transient: false, tokenRejected: true, subcode: 65601 });
    expect(denied).toMatchObject({ transient: false, tokenRejected: false, code: 'ACCESS_DENIED' });
    expect(denied.message).toMatch(/w_organization_social/);
    expect(version).toMatchObject({ transient: false, code: 'version_retired' });
    expect(throttled).toMatchObject({
      transient: true,
      retryAfterMs: 120_000,
      throttle: { kind: 'rate_limit', scope: 'account', waitMs: 120_000 },
    });
    expect(failed).toMatchObject({ transient: true, outcomeUnknown: true });
  });
});

describe('LinkedIn refusals found without a call or from a strange answer', () => {
  test('when a post has 21 images, then it is refused with too_many_media before any upload', () => {
    expect(() => assertLinkedInPost({ author: 'urn:li:person:1', text: 'x', images: 21 })).toThrow(
      expect.objectContaining({ code: 'too_many_media', transient: false }),
    );
  });

  test('when LinkedIn answers 201 without x-restli-id, then the outcome is unknown (invalid_answer), not a success', async () => {
    const fetchImpl = (async () => new Response(null, { status: 201 })) as typeof fetch;
    const api = { baseUrl: 'https://api.linkedin.test', accessToken: 't', version: '202610', fetchImpl };

    await expect(
      createLinkedInPost(api, { author: 'urn:li:person:1', text: 'x', content: { kind: 'none' } }),
    ).rejects.toMatchObject({
      code: 'invalid_answer',
      transient: true,
      outcomeUnknown: true,
    });
  });

  test('when a profile holds no refresh token, then refresh asks for a reconnect (no_refresh_token) without calling LinkedIn', async () => {
    let called = 0;
    const client = linkedInOAuth({
      clientId: 'id',
      clientSecret: 'secret',
      authorizeUrl: 'https://www.linkedin.test/oauth/v2/authorization',
      tokenUrl: 'https://www.linkedin.test/oauth/v2/accessToken',
      apiUrl: 'https://api.linkedin.test',
      version: '202610',
      fetchImpl: async () => {
        called++;
        return new Response('{}');
      },
    });

    await expect(
      client.refresh({ platformUserId: 'urn:li:person:1', accessToken: 'a', refreshToken: null, expiresAt: null }),
    ).rejects.toMatchObject({ code: 'no_refresh_token', tokenRefused: true });
    expect(called).toBe(0);
    expect(client.authorizeUrl({ redirectUri: 'https://p.example/cb', state: 's' })).toBe(
      'https://www.linkedin.test/oauth/v2/authorization?response_type=code&client_id=id&redirect_uri=https%3A%2F%2Fp.example%2Fcb&state=s&scope=openid+profile+w_member_social+w_organization_social+r_organization_admin',
    );
  });
});
