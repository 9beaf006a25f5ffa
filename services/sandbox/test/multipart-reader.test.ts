import { readMultipart } from '../src/multipart';
import { startSandbox, type RunningSandbox } from '../src/main';
import { call, control, newUser } from './emulator-client';

const refused = () => new Error('no boundary');

/** A form as bytes, one byte a character, so a part can carry binary data. */
function form(boundary: string, parts: string[], epilogue = ''): Buffer {
  return Buffer.from(
    `preamble\r\n${parts.map((p) => `--${boundary}\r\n${p}\r\n`).join('')}--${boundary}--\r\n${epilogue}`,
    'latin1',
  );
}

describe('the multipart reader the upload emulators share', () => {
  test('when a form has fields and a file, then each part comes back in order with its name, filename, type and bytes', () => {
    const body = form('b0', [
      'content-disposition: form-data; name="description"\r\n\r\nA red square',
      'Content-Disposition: form-data; name="file"; filename="a.jpg"\r\nContent-Type: IMAGE/JPEG; q=1\r\n\r\n\xff\xd8\xff',
      'content-disposition: form-data; name="description"\r\n\r\nagain',
    ]);

    const parts = readMultipart(body, 'multipart/form-data; boundary="b0"', refused);

    expect(parts.map((p) => [p.name, p.filename, p.contentType, p.data.toString('latin1')])).toEqual([
      ['description', undefined, undefined, 'A red square'],
      ['file', 'a.jpg', 'image/jpeg', '\xff\xd8\xff'],
      ['description', undefined, undefined, 'again'],
    ]);
  });

  test('when a part has no header block or no name, or bytes follow the closing delimiter, then they are not read', () => {
    const body = form(
      'b1',
      [
        'no headers here',
        'content-type: text/plain\r\n\r\nnameless',
        'content-disposition: form-data; name="kept"\r\n\r\nyes',
      ],
      '--b1\r\ncontent-disposition: form-data; name="epilogue"\r\n\r\nno\r\n--b1--',
    );

    const parts = readMultipart(body, 'multipart/form-data; boundary=b1', refused);

    expect(parts.map((p) => [p.name, p.data.toString()])).toEqual([['kept', 'yes']]);
  });

  test('when the content type names no boundary, then the caller’s own refusal is thrown', () => {
    expect(() => readMultipart(Buffer.from('--x--'), 'multipart/form-data', refused)).toThrow('no boundary');
  });
});

describe('each platform keeps its own refusal of a multipart upload without a boundary', () => {
  let sandbox: RunningSandbox;
  const noBoundary = { 'content-type': 'multipart/form-data' };
  const body = 'content-disposition: form-data; name="media"\r\n\r\nbytes';

  beforeAll(async () => {
    sandbox = await startSandbox({ port: 0, processingDelayMs: 0 });
  });
  afterAll(async () => {
    await sandbox.close();
  });

  test('when X is sent one, then it answers 400 Invalid Request', async () => {
    const user = await newUser(sandbox, 'x', 'boundless_x');

    const res = await call(`${sandbox.url}/x/2/media/upload`, { token: user.accessToken, headers: noBoundary, body });

    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ title: 'Invalid Request', detail: 'The multipart body has no boundary.' });
  });

  test("when a Mastodon instance is sent one, then it answers 422 File can't be blank", async () => {
    const created = await control(sandbox, 'POST', '/users', {
      platform: 'mastodon',
      handle: 'boundless',
      instance: 'mastodon.example',
    });

    const res = await call(`${sandbox.url}/mastodon/mastodon.example/api/v2/media`, {
      token: (created.body as { accessToken: string }).accessToken,
      headers: noBoundary,
      body,
    });

    expect(res).toMatchObject({ status: 422, body: { error: "Validation failed: File can't be blank" } });
  });
});
