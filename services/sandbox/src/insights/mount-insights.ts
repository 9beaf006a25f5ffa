import type { Logger } from '@postbus/kit';
import type { Express } from 'express';
import type { SandboxState } from '../state';
import { insightsControlRouter } from './control';
import { facebookInsightsRouter, mediaInsightsRouter } from './meta-insights.routes';
import { tiktokInsightsRouter } from './tiktok-insights.routes';
import { youtubeInsightsRouter } from './youtube-insights.routes';

/**
 * The platforms' insights endpoints, reporting deterministic figures for published items, and
 * their control API. Mounted before the platform routers: paths they do not know go on to them.
 */
export function mountInsights(
  app: Express,
  state: SandboxState,
  logger: Logger,
  paths: { threads: string; instagram: string; facebook: string; tiktok: string; youtube: string; control: string },
): void {
  app.use(`${paths.control}/insights`, insightsControlRouter(state));
  app.use(paths.threads, mediaInsightsRouter(state, 'threads', logger));
  app.use(paths.instagram, mediaInsightsRouter(state, 'instagram', logger));
  app.use(paths.facebook, facebookInsightsRouter(state, logger));
  app.use(paths.tiktok, tiktokInsightsRouter(state, logger));
  app.use(paths.youtube, youtubeInsightsRouter(state, logger));
}
