import type { Platform } from '@postbus/contracts';
import express, { type RequestHandler } from 'express';
import { platformLatency } from '../platform-settings';
import { recordRequests } from '../requests';
import type { SandboxState } from '../state';
import { GraphError, graphErrorForCode } from './graph-error';
import { graphParams, sendGraph } from './graph-http';
import { isMetaPlatform } from './meta-throttle';

/**
 * What every Meta emulator route runs first (after its body parsers): the request is recorded,
 * delayed by the platform's latency, and throttled: code 4 with X-App-Usage past throttlePerMinute, and
 * the app's or the account's code with usage headers once a call budget of the rolling window is spent.
 */
export function metaPlatformGate(state: SandboxState, platform: Platform): RequestHandler[] {
  const throttle: RequestHandler = (req, _res, next) => {
    const token =
      /^(?:Bearer|OAuth)\s+(\S+)$/i.exec(req.get('authorization') ?? '')?.[1] ??
      graphParams(req).access_token ??
      'anonymous';
    const limit = state.settingsFor(platform).throttlePerMinute;
    if (limit !== null && state.platformSettings.overLimit(`${platform}:${token}`, limit, state.now())) {
      throw graphErrorForCode(4, { status: 429 });
    }
    if (isMetaPlatform(platform)) {
      const refused = state.metaThrottle.admit(
        platform,
        state.users.byAccessToken(platform, token)?.userId ?? token,
        state.now(),
        state.users.count(platform),
      );
      if (refused) throw refused;
    }
    next();
  };
  return [
    recordRequests(state.requests, platform, () => state.now()),
    platformLatency(() => state.settingsFor(platform).latencyMs),
    throttle,
  ];
}

/**
 * Threads runs its own router with the sandbox-wide latency; mounted before it, this records
 * its requests, applies Threads' own throttling, and adds whatever latency Threads is given
 * beyond the sandbox-wide one.
 */
export function threadsExtras(state: SandboxState): RequestHandler[] {
  const [record, , throttle] = metaPlatformGate(state, 'threads');
  const extraLatency = platformLatency(() =>
    Math.max(0, state.settingsFor('threads').latencyMs - state.settings.latencyMs),
  );
  // mounted outside the Threads router, so its throttling answer is sent here, in Graph's envelope
  const answered: RequestHandler = (req, res, next) => {
    try {
      throttle(req, res, next);
    } catch (err) {
      if (!(err instanceof GraphError)) throw err;
      sendGraph(state, res, err.status, err.toBody(), err.extra.headers);
    }
  };
  return [express.urlencoded({ extended: false }), express.json(), record, extraLatency, answered];
}
