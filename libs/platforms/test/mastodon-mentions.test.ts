import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  isPlatformError,
  listMastodonReplyMentions,
  mastodonPlainText,
  replyOnMastodon,
  type PlatformError,
} from '../src';

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

describe('reading and answering Mastodon mentions', () => {
  let server: Server;
  let base: string;
  const seen: Seen[] = [];
  let answer: { status: number; body: unknown } = { status: 200, body: [] };

  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString('utf8')));
      req.on('end', () => {
        seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
        res.writeHead(answer.status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(answer.body));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mastodon/{instance}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => (seen.length = 0));

  const api = () => ({
    instances: { baseUrlTemplate: base, allowLoopback: true },
    instance: 'mastodon.example',
    accessToken: 'tok',
    timeoutMs: 2000,
  });
  const mention = (id: string, status: Record<string, unknown>) => ({
    id,
    type: 'mention',
    account: { id: '77', acct: 'bob@elsewhere.example' },
    status: { id: `s${id}`, content: '<p>hi</p>', account: { id: '77', acct: 'bob@elsewhere.example' }, ...status },
  });

  test('when mentions come after the cursor, then only those answering the account are replies, oldest first, and the newest id is the next cursor', async () => {
    answer = {
      status: 200,
      body: [
        mention('120', { in_reply_to_id: '5', in_reply_to_account_id: '1', content: '<p>price &amp; <br>size?</p>' }),
        mention('110', { in_reply_to_id: '9', in_reply_to_account_id: '42' }),
        mention('99', { in_reply_to_id: null, in_reply_to_account_id: null }),
        mention('100', { in_reply_to_id: '5', in_reply_to_account_id: '1' }),
      ],
    };
    const page = await listMastodonReplyMentions(api(), '1', '98');
    expect(seen[0].url).toBe('/mastodon/mastodon.example/api/v1/notifications?types%5B%5D=mention&min_id=98&limit=40');
    expect(seen[0].headers.authorization).toBe('Bearer tok');
    expect(page.newestId).toBe('120');
    expect(page.ignored).toBe(2);
    expect(page.more).toBe(false);
    expect(page.replies.map((r) => r.statusId)).toEqual(['s100', 's120']);
    expect(page.replies[1]).toMatchObject({
      inReplyToId: '5',
      text: 'price & \nsize?',
      authorName: 'bob@elsewhere.example',
    });
  });

  test('when there is no cursor yet, then the newest page is read', async () => {
    answer = { status: 200, body: [mention('300', { in_reply_to_id: '5', in_reply_to_account_id: '1' })] };
    const page = await listMastodonReplyMentions(api(), '1', undefined);
    expect(seen[0].url).toBe('/mastodon/mastodon.example/api/v1/notifications?types%5B%5D=mention&limit=40');
    expect(page).toMatchObject({ newestId: '300', ignored: 0, more: false });
    expect(page.replies.map((r) => r.statusId)).toEqual(['s300']);
  });

  test('when a mention carries an id too long or a time that is none, then the id is not taken and the time is null', async () => {
    answer = {
      status: 200,
      body: [
        mention('7', { id: 'x'.repeat(65), in_reply_to_id: '5', in_reply_to_account_id: '1' }),
        mention('8', { in_reply_to_id: '5', in_reply_to_account_id: '1', created_at: 'yesterday-ish' }),
        mention('9', { in_reply_to_id: '5', in_reply_to_account_id: '1', created_at: '2026-12-01T10:00:00.000Z' }),
      ],
    };
    const page = await listMastodonReplyMentions(api(), '1', '1');
    expect(page.replies.map((r) => [r.statusId, r.createdAt])).toEqual([
      ['s8', null],
      ['s9', '2026-12-01T10:00:00.000Z'],
    ]);
    expect(page.ignored).toBe(1);
  });

  test('when the instance answers no list, then the read fails invalid_response and may be tried again', async () => {
    answer = { status: 200, body: { error: 'nope' } };
    const err = (await listMastodonReplyMentions(api(), '1', '1').catch((e: unknown) => e)) as PlatformError;
    expect(isPlatformError(err)).toBe(true);
    expect(err).toMatchObject({ code: 'invalid_response', transient: true });
  });

  test('when the token is revoked, then the read fails token_revoked', async () => {
    answer = { status: 401, body: { error: 'The access token was revoked' } };
    const err = (await listMastodonReplyMentions(api(), '1', '1').catch((e: unknown) => e)) as PlatformError;
    expect(err).toMatchObject({ code: 'token_revoked', tokenRejected: true });
  });

  test('when a reply is posted, then it answers the status with the Idempotency-Key and its id comes back', async () => {
    answer = { status: 200, body: { id: '555' } };
    await expect(replyOnMastodon(api(), 's120', 'Thanks!', 'key-1')).resolves.toEqual({ id: '555' });
    expect(seen[0]).toMatchObject({ method: 'POST', url: '/mastodon/mastodon.example/api/v1/statuses' });
    expect(seen[0].headers['idempotency-key']).toBe('key-1');
    expect(new URLSearchParams(seen[0].body).get('in_reply_to_id')).toBe('s120');
    expect(new URLSearchParams(seen[0].body).get('status')).toBe('Thanks!');
  });

  test('when the reply is answered without an id, then it fails invalid_response and its outcome is unknown', async () => {
    answer = { status: 200, body: {} };
    const err = (await replyOnMastodon(api(), 's1', 'x', 'k').catch((e: unknown) => e)) as PlatformError;
    expect(err).toMatchObject({ code: 'invalid_response', outcomeUnknown: true });
  });

  test('when content carries tags and entities, then plain text remains', () => {
    expect(mastodonPlainText('<p><span class="h-card">@<span>me</span></span> a&lt;b &#128077;</p><p>two</p>')).toBe(
      '@me a<b 👍\n\ntwo',
    );
  });
});
