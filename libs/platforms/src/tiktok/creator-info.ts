import { callTikTok, type TikTokApiOptions } from './api';

export interface TikTokCreatorInfo {
  username: string;
  nickname: string;
  privacyLevelOptions: string[];
  commentDisabled: boolean;
  duetDisabled: boolean;
  stitchDisabled: boolean;
  maxVideoPostDurationSec: number | null;
}

/** `POST /v2/post/publish/creator_info/query/`: asked before every post; its options bound what the post may ask for. */
export async function queryTikTokCreatorInfo(api: TikTokApiOptions): Promise<TikTokCreatorInfo> {
  const data = await callTikTok(api, '/v2/post/publish/creator_info/query/', {});
  const options = Array.isArray(data.privacy_level_options)
    ? data.privacy_level_options.filter((o): o is string => typeof o === 'string')
    : [];
  const max = Number(data.max_video_post_duration_sec);
  return {
    username: typeof data.creator_username === 'string' ? data.creator_username : '',
    nickname: typeof data.creator_nickname === 'string' ? data.creator_nickname : '',
    privacyLevelOptions: options,
    commentDisabled: data.comment_disabled === true,
    duetDisabled: data.duet_disabled === true,
    stitchDisabled: data.stitch_disabled === true,
    maxVideoPostDurationSec: Number.isFinite(max) && max > 0 ? max : null,
  };
}
