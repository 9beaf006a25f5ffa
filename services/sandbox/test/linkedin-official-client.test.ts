import { RestliClient } from 'linkedin-api-client';
import { startSandbox, type RunningSandbox } from '../src/main';
import { control } from './emulator-client';

/**
 * LinkedIn's own JavaScript client (linkedin-api-client, https://github.com/linkedin-developers/linkedin-api-js-client)
 * against the emulator: the Rest.li headers, the action encoding, the URN path keys and the x-restli-id
 * it reads the created post from are the real wire format.
 */
let sandbox: RunningSandbox;

beforeAll(async () => {
  sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
});
afterAll(async () => {
  await sandbox.close();
});

function clientOnSandbox(): RestliClient {
  const client = new RestliClient();
  client.axiosInstance.interceptors.request.use((config) => {
    config.url = String(config.url).replace('https://api.linkedin.com', `${sandbox.url}/linkedin`);
    return config;
  });
  return client;
}

describe("LinkedIn's official client against the emulator", () => {
  test('when the client reads the member, uploads an image with the action API and creates a post, then each call succeeds and the post id is read from x-restli-id', async () => {
    const { userId, accessToken } = (
      await control(sandbox, 'POST', '/users', { platform: 'linkedin', handle: 'sdk_member' })
    ).body as {
      userId: string;
      accessToken: string;
    };
    const client = clientOnSandbox();
    const versionString = '202610';

    const me = await client.get({ resourcePath: '/userinfo', accessToken });
    const author = `urn:li:person:${me.data.sub}`;
    const init = await client.action({
      resourcePath: '/images',
      actionName: 'initializeUpload',
      data: { initializeUploadRequest: { owner: author } },
      versionString,
      accessToken,
    });
    const { uploadUrl, image } = init.data.value as { uploadUrl: string; image: string };
    const put = await fetch(uploadUrl, {
      method: 'PUT',
      headers: { authorization: `Bearer ${accessToken}`, 'content-type': 'image/png' },
      body: new Uint8Array(64),
    });
    const status = await client.get({
      resourcePath: '/images/{id}',
      pathKeys: { id: image },
      versionString,
      accessToken,
    });
    const created = await client.create({
      resourcePath: '/posts',
      entity: {
        author,
        commentary: 'Made with the official client \\(really\\)',
        visibility: 'PUBLIC',
        distribution: { feedDistribution: 'MAIN_FEED', targetEntities: [], thirdPartyDistributionChannels: [] },
        content: { media: { id: image, altText: 'a square' } },
        lifecycleState: 'PUBLISHED',
        isReshareDisabledByAuthor: false,
      },
      versionString,
      accessToken,
    });

    expect(me.data.sub).toBe(userId);
    expect(put.status).toBe(201);
    expect(status.data).toMatchObject({ id: image, status: 'AVAILABLE' });
    expect(created.status).toBe(201);
    expect(created.createdEntityId).toMatch(/^urn:li:share:\d+$/);
    const [item] = sandbox.state.published.list({ platform: 'linkedin', userId });
    expect(item).toMatchObject({
      id: created.createdEntityId,
      text: 'Made with the official client (really)',
      mediaType: 'image',
    });
  });
});
