// An ES module of a project that installed the packed @postbus/client: uploads an image, publishes
// a post with it, waits for its outcome, and reads a missing post to see the error. Prints JSON.
//   node publish.mjs <baseUrl> <apiKey>
import { createClient, PostbusError } from '@postbus/client';

const [baseUrl, apiKey] = process.argv.slice(2);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==',
  'base64',
);

const postbus = createClient({ baseUrl, apiKey });
const media = await postbus.uploadMedia(PNG, { filename: 'pixel.png' });
const { postIds } = await postbus.publish({
  platforms: ['threads'],
  caption: 'Hello from an ES module',
  mediaId: media.mediaId,
});
const post = await postbus.waitForPost(postIds[0], { timeoutMs: 30_000 });
const refused = await postbus.getPost('pst_missing').catch((err) => err);

console.log(
  JSON.stringify({
    loaded: import.meta.resolve('@postbus/client'),
    mediaId: media.mediaId,
    status: post.status,
    permalink: post.permalink,
    mediaUrls: post.mediaUrls,
    error: refused instanceof PostbusError ? { status: refused.status, code: refused.code } : String(refused),
  }),
);
