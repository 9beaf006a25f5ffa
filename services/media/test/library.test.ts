import { Events, Rpc, type EventEnvelope, type Principal } from '@postbus/contracts';
import { waitFor } from '@postbus/testing';
import { aJpeg, TINY_GIF, TINY_PNG } from './support/media-files';
import { pathOf, startMediaHarness, uploadTo, type MediaHarness } from './support/media-harness';

let h: MediaHarness;
const deletions: EventEnvelope[] = [];

beforeAll(async () => {
  h = await startMediaHarness('media_library');
  const consumer = h.bus.consume({
    queue: 'test.media-deleted',
    events: [Events.mediaDeleted.name],
    retryDelaysMs: [],
    handler: async (e) => void deletions.push(e),
  });
  await consumer.start();
});
afterAll(() => h?.stop());

async function anAccount() {
  const account = await h.account();
  const principal: Principal = {
    accountId: account.accountId,
    userId: account.userId,
    credential: { type: 'api_key', id: account.keyId },
    scopes: ['media:write'],
    profileIds: 'all',
  };
  return { ...account, principal };
}

describe('reading the library', () => {
  test('when media is read, then it shows type, size, status and a fresh signed URL', async () => {
    const a = await anAccount();
    const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes: TINY_PNG });
    const asset = await h.bus.rpc.call(Rpc.mediaGet, { mediaId: up.body.mediaId }, a.principal);
    expect(asset).toEqual({
      mediaId: up.body.mediaId,
      url: expect.stringContaining(`/files/${up.body.mediaId}?expires=`),
      contentType: 'image/png',
      sizeBytes: TINY_PNG.length,
      status: 'ready',
      createdAt: expect.any(String),
      probe: expect.objectContaining({ kind: 'image', width: 1, height: 1 }),
    });
    expect((await fetch(`${h.mediaUrl}${pathOf(asset.url)}`)).status).toBe(200);
  });

  test('when another account asks for it, then not_found exactly as for a missing id', async () => {
    const a = await anAccount();
    const b = await anAccount();
    const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes: TINY_PNG });
    await expect(h.bus.rpc.call(Rpc.mediaGet, { mediaId: up.body.mediaId }, b.principal)).rejects.toMatchObject({
      code: 'not_found',
      message: `No media ${up.body.mediaId}.`,
    });
    await expect(h.bus.rpc.call(Rpc.mediaGet, { mediaId: 'med_missing' }, b.principal)).rejects.toMatchObject({
      code: 'not_found',
      message: 'No media med_missing.',
    });
    await expect(h.bus.rpc.call(Rpc.mediaDelete, { mediaId: up.body.mediaId }, b.principal)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await h.bus.rpc.call(Rpc.mediaList, {}, b.principal)).media).toEqual([]);
  });

  test('when the library is listed in pages, then every media comes once, newest first, and the last page has no cursor', async () => {
    const a = await anAccount();
    const ids: string[] = [];
    for (let i = 0; i < 5; i++)
      ids.push((await uploadTo(h.mediaUrl, a.apiKey, { bytes: aJpeg(1024 + i) })).body.mediaId);
    const seen: string[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = await h.bus.rpc.call(Rpc.mediaList, { limit: 2, ...(cursor ? { cursor } : {}) }, a.principal);
      expect(page.count).toBe(page.media.length);
      seen.push(...page.media.map((m) => m.mediaId));
      cursor = page.nextCursor ?? undefined;
      pages++;
    } while (cursor);
    expect(pages).toBe(3);
    expect(seen).toEqual([...ids].reverse());
  });

  test('when a cursor is not one of this list, or the limit is out of range, then validation_error', async () => {
    const a = await anAccount();
    const b = await anAccount();
    await uploadTo(h.mediaUrl, a.apiKey, { bytes: aJpeg(1000) });
    const ofA = await h.bus.rpc.call(Rpc.mediaList, { limit: 1 }, a.principal);
    await uploadTo(h.mediaUrl, a.apiKey, { bytes: aJpeg(1001) });
    const second = await h.bus.rpc.call(Rpc.mediaList, { limit: 1 }, a.principal);
    await expect(h.bus.rpc.call(Rpc.mediaList, { cursor: second.nextCursor! }, b.principal)).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(h.bus.rpc.call(Rpc.mediaList, { cursor: 'garbage' }, a.principal)).rejects.toMatchObject({
      code: 'validation_error',
    });
    await expect(h.bus.rpc.call(Rpc.mediaList, { limit: 0 }, a.principal)).rejects.toMatchObject({
      code: 'validation_error',
    });
    expect(ofA.media).toHaveLength(1);
  });
});

describe('resolving for posts', () => {
  test("when posts resolves a ready media of the account, then it gets the serve URL; another account's or a missing one is media_not_found", async () => {
    const a = await anAccount();
    const b = await anAccount();
    const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes: TINY_GIF });
    const resolved = await h.bus.rpc.call(Rpc.mediaResolve, { mediaId: up.body.mediaId }, a.principal);
    expect(resolved).toMatchObject({ mediaId: up.body.mediaId, contentType: 'image/gif', status: 'ready' });
    await expect(h.bus.rpc.call(Rpc.mediaResolve, { mediaId: up.body.mediaId }, b.principal)).rejects.toMatchObject({
      code: 'media_not_found',
    });
    await expect(h.bus.rpc.call(Rpc.mediaResolve, { mediaId: 'med_nothing' }, a.principal)).rejects.toMatchObject({
      code: 'media_not_found',
    });
  });
});

describe('deleting', () => {
  test('when media is deleted, then it answers its final state, media.deleted is announced and posts get media_not_found', async () => {
    const a = await anAccount();
    const up = await uploadTo(h.mediaUrl, a.apiKey, { bytes: aJpeg(5000) });
    const deleted = await h.bus.rpc.call(Rpc.mediaDelete, { mediaId: up.body.mediaId }, a.principal);
    expect(deleted).toEqual({ mediaId: up.body.mediaId, status: 'deleted', deletedAt: expect.any(String) });
    const event = await waitFor(
      () => deletions.find((e) => (e.data as { mediaId: string }).mediaId === up.body.mediaId),
      { what: 'media.deleted' },
    );
    expect(event.data).toEqual({ mediaId: up.body.mediaId, accountId: a.accountId });
    await expect(h.bus.rpc.call(Rpc.mediaResolve, { mediaId: up.body.mediaId }, a.principal)).rejects.toMatchObject({
      code: 'media_not_found',
    });
    await expect(h.bus.rpc.call(Rpc.mediaGet, { mediaId: up.body.mediaId }, a.principal)).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(h.bus.rpc.call(Rpc.mediaDelete, { mediaId: up.body.mediaId }, a.principal)).rejects.toMatchObject({
      code: 'not_found',
    });
    expect((await h.bus.rpc.call(Rpc.mediaList, {}, a.principal)).media).toEqual([]);
  });

  test('when two media share the same bytes, then one object is stored, and it goes only with the last of them', async () => {
    const a = await anAccount();
    const b = await anAccount();
    const bytes = aJpeg(20_000);
    const before = await h.storedObjects();
    const first = await uploadTo(h.mediaUrl, a.apiKey, { bytes });
    const second = await uploadTo(h.mediaUrl, b.apiKey, { bytes });
    expect(first.body.mediaId).not.toBe(second.body.mediaId);
    const after = await h.storedObjects();
    expect(after.length).toBe(before.length + 1);

    await h.bus.rpc.call(Rpc.mediaDelete, { mediaId: first.body.mediaId }, a.principal);
    expect(await h.storedObjects()).toEqual(after);
    const still = await fetch(`${h.mediaUrl}${pathOf(second.body.url)}`);
    expect(Buffer.from(await still.arrayBuffer()).equals(bytes)).toBe(true);

    await h.bus.rpc.call(Rpc.mediaDelete, { mediaId: second.body.mediaId }, b.principal);
    expect((await h.storedObjects()).length).toBe(before.length);

    const again = await uploadTo(h.mediaUrl, a.apiKey, { bytes });
    const served = await fetch(`${h.mediaUrl}${pathOf(again.body.url)}`);
    expect(Buffer.from(await served.arrayBuffer()).equals(bytes)).toBe(true);
  });
});
