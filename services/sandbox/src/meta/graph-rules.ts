import type { Logger } from '@postbus/kit';
import { Router, type RequestHandler } from 'express';
import type { SandboxState } from '../state';
import { GraphError } from './graph-error';
import { graphErrorHandler } from './graph-http';

/**
 * What Facebook and Instagram Graph no longer serve, refused the way Graph answers. Each rule can
 * be relaxed for a test (`startSandbox({ graph: { … } })` or `state.graphRules`).
 */
export interface GraphRules {
  /**
   * Oldest Graph version served; older calls are refused (code 2635). v20.0 expired on
   * 24 September 2026 (https://developers.facebook.com/docs/graph-api/changelog/versions/).
   * null: any version.
   */
  oldestVersion: string | null;
  /**
   * graph-video.facebook.com is retired for video uploads: calls there are refused
   * (https://developers.facebook.com/docs/video-api/overview). false: it still answers.
   */
  refuseGraphVideoHost: boolean;
}

export const DEFAULT_GRAPH_RULES: GraphRules = { oldestVersion: 'v21.0', refuseGraphVideoHost: true };

const VERSION = /^v(\d+)\.(\d+)$/;

/**
 * In front of a Graph API mounted at `/{platform}/:version` (Facebook Login's versioned paths
 * included): a version segment must name a version Graph still serves; unversioned paths
 * (`/facebook/me`, `/instagram/access_token`) go on as they are. Real Graph would answer calls to an expired version as the oldest
 * one still available; the sandbox refuses them instead, so a stale setting shows in tests.
 * The refusal mirrors Meta's deprecated-version error (code 2635).
 */
export function graphVersionGate(state: SandboxState): RequestHandler {
  return (req, _res, next) => {
    const segment = /^\/[^/]+\/([^/]+)/.exec(req.originalUrl.split('?')[0])?.[1] ?? '';
    const version = VERSION.exec(segment);
    if (!version) return next();
    const oldest = state.graphRules.oldestVersion ? VERSION.exec(state.graphRules.oldestVersion) : null;
    if (oldest && (Number(version[1]) - Number(oldest[1]) || Number(version[2]) - Number(oldest[2])) < 0) {
      throw new GraphError(
        400,
        2635,
        `(#2635) You are calling a deprecated version of the Graph API (${segment}). Please update to ${state.graphRules.oldestVersion} or later.`,
        {
          isTransient: false,
        },
      );
    }
    next();
  };
}

/** A gate as a router of its own: a refusal is answered in Graph's envelope, a pass goes on to the API. */
export function graphGateRouter(state: SandboxState, logger: Logger, gate: RequestHandler): Router {
  const router = Router();
  router.use(gate);
  router.use(graphErrorHandler(state, logger));
  return router;
}

/** In front of `/facebook-video/:version`: the retired host answers with an error unless the rule is relaxed. */
export function retiredVideoHostGate(state: SandboxState): RequestHandler {
  return (_req, _res, next) => {
    if (!state.graphRules.refuseGraphVideoHost) return next();
    throw new GraphError(
      400,
      100,
      '(#100) graph-video.facebook.com is retired for video uploads; send /{page-id}/videos to graph.facebook.com.',
      { isTransient: false },
    );
  };
}
