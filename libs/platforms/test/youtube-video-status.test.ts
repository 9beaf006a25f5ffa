import { getYouTubeVideoStatus, youtubeUploadFailure, type YouTubeVideoStatus } from '../src';

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

function answering(body: unknown, status = 200) {
  const urls: string[] = [];
  const fetchImpl = (async (input: string | URL) => {
    urls.push(String(input));
    return json(body, status);
  }) as typeof fetch;
  return { urls, api: { apiUrl: 'https://yt.test/youtube/v3/', accessToken: 'tok', fetchImpl } };
}

const status = (over: Partial<YouTubeVideoStatus>): YouTubeVideoStatus => ({
  uploadStatus: 'uploaded',
  privacyStatus: 'public',
  failureReason: null,
  rejectionReason: null,
  ...over,
});

describe('reading a YouTube video status back', () => {
  test('when videos.list lists the video, then its status is read from part=status', async () => {
    const { urls, api } = answering({
      items: [{ id: 'vid1', status: { uploadStatus: 'processed', privacyStatus: 'private', license: 'youtube' } }],
    });

    expect(await getYouTubeVideoStatus(api, 'vid1')).toEqual({
      uploadStatus: 'processed',
      privacyStatus: 'private',
      failureReason: null,
      rejectionReason: null,
    });
    expect(urls).toEqual(['https://yt.test/youtube/v3/videos?part=status&id=vid1']);
  });

  test('when the video is not listed, then the status is unknown (null), not an error', async () => {
    expect(await getYouTubeVideoStatus(answering({ items: [] }).api, 'vid1')).toBeNull();
  });

  test('when YouTube answers an error, then it is the usual YouTube PlatformError', async () => {
    await expect(
      getYouTubeVideoStatus(
        answering({ error: { code: 503, message: 'x', errors: [{ reason: 'backendError' }] } }, 503).api,
        'vid1',
      ),
    ).rejects.toMatchObject({ transient: true, code: 'backendError' });
  });
});

describe('an upload YouTube did not keep', () => {
  test.each([
    [
      status({ uploadStatus: 'rejected', rejectionReason: 'duplicate' }),
      'YouTube rejected the video as a duplicate of a video already on the channel; it was not published.',
      'upload_rejected_duplicate',
    ],
    [
      status({ uploadStatus: 'rejected', rejectionReason: 'somethingNew' }),
      'YouTube rejected the video (somethingNew); it was not published.',
      'upload_rejected_somethingNew',
    ],
    [
      status({ uploadStatus: 'failed', failureReason: 'emptyFile' }),
      'YouTube could not process the video: the file is empty; check that the media link serves the video; it was not published.',
      'upload_failed_emptyFile',
    ],
    [
      status({ uploadStatus: 'deleted' }),
      'The video was deleted on YouTube right after its upload; it was not published.',
      'upload_deleted',
    ],
  ])('when uploadStatus is %o, then a permanent failure with the reason', (s, reason, code) => {
    expect(youtubeUploadFailure(s, 'vid1')).toMatchObject({
      message: reason,
      code,
      transient: false,
      containerId: 'vid1',
    });
  });

  test.each(['uploaded', 'processed'])('when uploadStatus is %s, then the video stands', (uploadStatus) => {
    expect(youtubeUploadFailure(status({ uploadStatus }), 'vid1')).toBeUndefined();
  });
});
