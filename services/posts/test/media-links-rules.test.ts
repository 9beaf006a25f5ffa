import { mediaLinkProblems } from '../src/posts/media-links.rules';

const links = (n: number) => Array.from({ length: n }, (_, i) => `https://cdn.example.com/${i}.jpg`);

describe("the rules of a post's media links", () => {
  test("when a mediaId comes with links, then it counts as one item against each platform's cap", () => {
    expect(mediaLinkProblems({ mediaId: 'med_1', mediaUrls: links(9) }, ['instagram'])).toEqual([]);
    expect(mediaLinkProblems({ mediaId: 'med_1', mediaUrls: links(10) }, ['instagram', 'threads'])).toEqual([
      {
        code: 'validation_error',
        platform: 'instagram',
        field: 'mediaUrls',
        message: 'An Instagram post takes at most 10 media items; this one has 11 (a mediaId counts as one).',
      },
    ]);
    expect(mediaLinkProblems({ mediaId: 'med_1' }, ['youtube'])).toEqual([]);
  });

  test('when links are not http(s) or carry credentials, then each is refused by its field; a string that is no URL is left to the schema', () => {
    const problems = mediaLinkProblems(
      {
        mediaUrls: ['https://ok.example/a.jpg', 'file:///etc/passwd', 'not a url', 'http://u:p@ok.example/b.jpg'],
        platformMeta: { facebook: { coverUrl: 'gopher://x/' }, youtube: { thumbnailUrl: 'https://ok.example/t.jpg' } },
      },
      ['facebook'],
    );
    expect(problems.map((p) => [p.code, p.field])).toEqual([
      ['media_url_refused', 'mediaUrls[1]'],
      ['media_url_refused', 'mediaUrls[3]'],
      ['media_url_refused', 'platformMeta.facebook.coverUrl'],
    ]);
    expect(problems[1].message).not.toContain('u:p');
  });

  test('when a list is far longer than any platform takes, then only links up to the largest cap are looked at', () => {
    const problems = mediaLinkProblems({ mediaUrls: Array.from({ length: 1000 }, () => 'file:///x') }, ['tiktok']);
    expect(problems.filter((p) => p.code === 'media_url_refused')).toHaveLength(35);
    expect(problems.filter((p) => p.code === 'validation_error')).toHaveLength(1);
  });
});
