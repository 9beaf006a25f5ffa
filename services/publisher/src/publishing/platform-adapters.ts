import type { Logger } from '@postbus/kit';
import type { AdapterConfig } from './adapters/adapter-config';
import { facebookAdapter } from './adapters/facebook.adapter';
import { instagramAdapter } from './adapters/instagram.adapter';
import type { PlatformAdapter } from './adapters/platform-adapter';
import { threadsAdapter } from './adapters/threads.adapter';
import { tiktokAdapter } from './adapters/tiktok.adapter';
import { youtubeAdapter } from './adapters/youtube.adapter';

export type { AdapterConfig } from './adapters/adapter-config';

/** One adapter per platform, each turning a due post into that platform's calls. */
export function createAdapters(cfg: AdapterConfig, logger: Logger): Record<string, PlatformAdapter> {
  return {
    instagram: instagramAdapter(cfg),
    facebook: facebookAdapter(cfg),
    threads: threadsAdapter(cfg),
    tiktok: tiktokAdapter(cfg),
    youtube: youtubeAdapter(cfg, logger.child({ platform: 'youtube' })),
  };
}
