import { linkCardUri } from '../src/bluesky/link-card';
import { decodeEntities, readPageMeta } from '../src/bluesky/page-meta';

describe("a page's Open Graph metadata", () => {
  test('when a page has Open Graph tags, then they win over Twitter cards, <title> and the description meta', () => {
    const html = `<!doctype html><html><head>
      <title>Plain title</title>
      <meta name="description" content="plain description">
      <meta name="twitter:title" content="Twitter title">
      <META PROPERTY='og:title' CONTENT='Launch &amp; &quot;more&quot; &#x1F680;'>
      <meta content="What   we
        shipped" property="og:description" />
      <meta property=og:image content=/img/card.jpg>
    </head><body><meta property="og:title" content="not in head"></body></html>`;
    expect(readPageMeta(html)).toEqual({
      title: 'Launch & "more" 🚀',
      description: 'What we shipped',
      image: '/img/card.jpg',
    });
  });

  test('when a page has no Open Graph tags, then <title>, the description meta and twitter:image stand in', () => {
    const html = `<head><title> A page
      &lt;3 </title><meta name="description" content="About it"><meta name="twitter:image" content="https://cdn.example/x.png"></head>`;
    expect(readPageMeta(html)).toEqual({
      title: 'A page <3',
      description: 'About it',
      image: 'https://cdn.example/x.png',
    });
  });

  test('when tags sit in comments, scripts or attribute values, then they are not read as tags', () => {
    const html = `<head>
      <!-- <meta property="og:title" content="commented"> -->
      <script>var s = '<meta property="og:title" content="scripted">';</script>
      <link rel="x" href='a>b'><meta property="og:title" content="real">
    </head>`;
    expect(readPageMeta(html)).toEqual({ title: 'real' });
  });

  test('when a page is cut in the middle of a tag or is hostile, then what was read before stays and the scan ends', () => {
    expect(readPageMeta('<head><meta property="og:title" content="ok"><meta property="og:description" conte')).toEqual({
      title: 'ok',
    });
    expect(readPageMeta('<'.repeat(200_000))).toEqual({});
    expect(readPageMeta(`<head><script>${'<meta '.repeat(50_000)}`)).toEqual({});
    expect(readPageMeta(`<head><meta content="${'"'.repeat(1)}${'x'.repeat(100_000)}`)).toEqual({});
  });

  test('when references are numeric, named or invalid, then only valid ones are decoded', () => {
    expect(decodeEntities('&#65;&#x42;&nbsp;&lt;&bogus;&#xD800;&#0;')).toBe('AB <&bogus;&#xD800;&#0;');
  });
});

describe('which link gets the card', () => {
  test('when no card is asked for, then the first link of the text gets it unless the post has media', () => {
    expect(linkCardUri('see example.com/a and https://b.example/x', undefined, false)).toBe('https://example.com/a');
    expect(linkCardUri('see https://b.example/x', undefined, true)).toBeUndefined();
    expect(linkCardUri('no links here', undefined, false)).toBeUndefined();
  });

  test('when a card is asked for or refused, then that wins', () => {
    expect(linkCardUri('see https://b.example/x', 'https://c.example/', false)).toBe('https://c.example/');
    expect(linkCardUri('see https://b.example/x', false, false)).toBeUndefined();
  });
});
