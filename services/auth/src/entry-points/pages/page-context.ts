import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { CookieOptions, NextFunction, Request, RequestHandler, Response } from 'express';
import { bodyFields } from '@postbus/service';
import type { Session, SessionRepository } from '../../sessions/session.repository';
import { randomToken } from '../../sessions/session.repository';

export const SESSION_COOKIE = 'pb_session';
/** Double-submit token of the forms shown before sign-in (sign up, sign in). */
export const CSRF_COOKIE = 'pb_csrf';

/** The names of the pages' cookies and whether they are Secure. */
export interface PageCookies {
  session: string;
  csrf: string;
  secure: boolean;
}

const PLAIN_COOKIES: PageCookies = { session: SESSION_COOKIE, csrf: CSRF_COOKIE, secure: false };

/**
 * From the scheme of PUBLIC_BASE_URL, not of the request (a hop that drops X-Forwarded-Proto must
 * not make them plain): over https the cookies are Secure and named `__Host-…`, which a browser
 * takes only from this host, over https, with Path=/ and no Domain, so neither a sibling subdomain
 * nor a plain-http answer can plant or overwrite them. Over http (development) the names are plain.
 */
export function pageCookies(publicBaseUrl: string): PageCookies {
  if (new URL(publicBaseUrl).protocol !== 'https:') return PLAIN_COOKIES;
  return { session: `__Host-${SESSION_COOKIE}`, csrf: `__Host-${CSRF_COOKIE}`, secure: true };
}

/** Makes `cookies` the cookies of every page of this app (read back with cookiesOf). */
export function usePageCookies(cookies: PageCookies): RequestHandler {
  return (_req, res, next) => {
    res.locals.cookies = cookies;
    next();
  };
}

export function cookiesOf(res: Response): PageCookies {
  return (res.locals.cookies as PageCookies | undefined) ?? PLAIN_COOKIES;
}

export function cookieOptions(req: Request, res: Response, maxAgeMs?: number): CookieOptions {
  return {
    httpOnly: true,
    sameSite: 'lax',
    secure: cookiesOf(res).secure || req.secure,
    path: '/',
    ...(maxAgeMs ? { maxAge: maxAgeMs } : {}),
  };
}

export function currentSession(res: Response): Session | undefined {
  return res.locals.session as Session | undefined;
}

export function nonceOf(res: Response): string {
  return res.locals.nonce as string;
}

/** Headers of every page: no caching (keys are shown once), no framing, a nonce-based CSP. */
export const pageHeaders: RequestHandler = (_req, res, next) => {
  const nonce = randomBytes(16).toString('base64');
  res.locals.nonce = nonce;
  res.setHeader(
    'Content-Security-Policy',
    `default-src 'none'; style-src 'nonce-${nonce}'; script-src 'nonce-${nonce}'; img-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'`,
  );
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Frame-Options', 'DENY');
  res.setHeader('X-Content-Type-Options', 'nosniff');
  res.setHeader('Referrer-Policy', 'same-origin');
  next();
};

/** A cookie the request carries (read by cookie-parser), when it is there as a string. */
export function cookieOf(req: Request, name: string): string | undefined {
  const value: unknown = (req.cookies as Record<string, unknown> | undefined)?.[name];
  return typeof value === 'string' ? value : undefined;
}

/** Puts the signed-in user's session, if any, in res.locals. */
export function loadSession(sessions: SessionRepository): RequestHandler {
  return async (req, res, next) => {
    const token = cookieOf(req, cookiesOf(res).session);
    if (token) res.locals.session = await sessions.find(token);
    next();
  };
}

/**
 * The token a form must send back: the session's own token once signed in (synchronizer),
 * before that a random value also set as an HttpOnly SameSite=Lax cookie (double submit).
 */
export function csrfToken(req: Request, res: Response): string {
  const session = currentSession(res);
  if (session) return session.csrfToken;
  const name = cookiesOf(res).csrf;
  const existing = cookieOf(req, name);
  if (existing !== undefined && existing.length >= 32) return existing;
  const fresh = randomToken();
  res.cookie(name, fresh, cookieOptions(req, res));
  req.cookies = { ...req.cookies, [name]: fresh };
  return fresh;
}

function sameToken(a: unknown, b: unknown): boolean {
  if (typeof a !== 'string' || typeof b !== 'string' || !a || !b) return false;
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** Refuses a form post whose `_csrf` field does not match the expected token. */
export function requireCsrf(onRefused: (req: Request, res: Response) => void): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const session = currentSession(res);
    const expected = session ? session.csrfToken : cookieOf(req, cookiesOf(res).csrf);
    if (!sameToken(bodyFields(req)._csrf, expected)) return onRefused(req, res);
    next();
  };
}

/** A same-site path to go to after signing in; anything else goes to settings. */
export function safeNext(next: unknown): string {
  return typeof next === 'string' && /^\/(?![/\\])[\w\-./?=&%]*$/.test(next) ? next : '/settings';
}
