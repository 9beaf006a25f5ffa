import { listPinterestBoards, type PinterestBoard } from '@postbus/platforms';

/** Reads a Pinterest account's boards with its token: https://developers.pinterest.com/docs/api/v5/boards-list */
export function pinterestBoardsReader(config: {
  PINTEREST_API_URL: string;
  PLATFORM_HTTP_TIMEOUT_MS: number;
}): (accessToken: string) => Promise<PinterestBoard[]> {
  return (accessToken) =>
    listPinterestBoards({ baseUrl: config.PINTEREST_API_URL, accessToken, timeoutMs: config.PLATFORM_HTTP_TIMEOUT_MS });
}
