import { Router, type Request, type RequestHandler, type Response } from 'express';
import { AppError, isAppError, type ApiKeySummary } from '@postbus/contracts';
import { bodyFields } from '@postbus/service';
import { toAccountSummary } from '../../accounts/account-summary';
import type { AccountRepository } from '../../accounts/account.repository';
import type { PasswordHasher } from '../../accounts/password';
import { signUp } from '../../accounts/sign-up.use-case';
import type { AuthConfig } from '../../config';
import type { ApiKeyRepository } from '../../keys/api-key.repository';
import type { IssueKeyInput } from '../../keys/issue-key.use-case';
import type { GrantRepository } from '../../oauth/grant.repository';
import type { Session, SessionRepository } from '../../sessions/session.repository';
import type { SignInBackoff } from '../../sessions/sign-in-backoff.repository';
import { signIn } from '../../sessions/sign-in.use-case';
import { addCalendarPages } from './calendar-pages.router';
import type { CalendarPosts } from './calendar-posts';
import { EMPTY_KEY_FORM, readKeyForm, toIssueKeyInput, type KeyFormValues } from './key-form';
import { messagePage, signOutForm } from './message.page';
import {
  cookieOf,
  cookieOptions,
  cookiesOf,
  csrfToken,
  currentSession,
  nonceOf,
  requireCsrf,
  safeNext,
} from './page-context';
import { settingsPage, type ProfileChoice } from './settings.page';
import { signInPage } from './sign-in.page';
import { signUpPage } from './sign-up.page';

export interface PagesPorts {
  accounts: AccountRepository;
  passwords: PasswordHasher;
  sessions: SessionRepository;
  keys: ApiKeyRepository;
  backoff: SignInBackoff;
  /** The OAuth grants behind the connected applications the settings page lists. */
  grants: GrantRepository;
  config: AuthConfig;
  issueKey(input: IssueKeyInput): Promise<{ keyId: string; key: string }>;
  revokeKey(keyId: string, accountId: string): Promise<ApiKeySummary>;
  /** The account's connected profiles, or undefined when connections does not answer. */
  listProfiles(session: Session): Promise<ProfileChoice[] | undefined>;
  /** The account's posts for the calendar pages, asked of posts. */
  calendarPosts: CalendarPosts;
}

const text = (v: unknown) => (typeof v === 'string' ? v : '');

const csrfRefused = (_req: Request, res: Response) => {
  res
    .status(403)
    .type('html')
    .send(
      messagePage({
        nonce: nonceOf(res),
        title: 'Please try again',
        message:
          'This form has expired or did not come from a Postbus page. Go back, reload the page and send it again.',
      }),
    );
};

const signedInOnly: RequestHandler = (req, res, next) => {
  if (currentSession(res)) return next();
  res.redirect(
    303,
    `/signin?next=${encodeURIComponent(req.originalUrl.startsWith('/settings') ? '/settings' : req.originalUrl)}`,
  );
};

/** Sign up, sign in, sign out and settings: small server-rendered forms that work without JavaScript. */
export function pagesRouter(ports: PagesPorts): Router {
  const router = Router();
  const csrf = requireCsrf(csrfRefused);
  addSessionPages(router, ports, csrf);
  addSettingsPages(router, ports, csrf);
  addCalendarPages(router, ports);
  return router;
}

/** Sign up, sign in and sign out. */
function addSessionPages(router: Router, ports: PagesPorts, csrf: RequestHandler): void {
  addSignUpPages(router, ports, csrf);
  addSignInPages(router, ports, csrf);
  addSignOutPages(router, ports, csrf);
}

/** Sets the new session's cookie and drops the CSRF cookie of the signed-out browser. */
function startSession(ports: PagesPorts, req: Request, res: Response, token: string): void {
  const sessionMs = ports.config.SESSION_TTL_HOURS * 3_600_000;
  res.cookie(cookiesOf(res).session, token, cookieOptions(req, res, sessionMs));
  res.clearCookie(cookiesOf(res).csrf, cookieOptions(req, res));
}

function addSignUpPages(router: Router, ports: PagesPorts, csrf: RequestHandler): void {
  router.get('/signup', (req, res) => {
    if (currentSession(res)) return res.redirect(303, '/settings');
    res.type('html').send(signUpPage({ nonce: nonceOf(res), csrf: csrfToken(req, res) }));
  });

  router.post('/signup', csrf, async (req, res) => {
    const form = bodyFields(req);
    const email = text(form.email);
    const name = text(form.name);
    try {
      const { token } = await signUp(ports, { email, password: text(form.password), name });
      startSession(ports, req, res, token);
      res.redirect(303, '/settings');
    } catch (err) {
      if (!isAppError(err) || err.code !== 'validation_error') throw err;
      res
        .status(400)
        .type('html')
        .send(signUpPage({ nonce: nonceOf(res), csrf: csrfToken(req, res), error: err.message, email, name }));
    }
  });
}

function addSignInPages(router: Router, ports: PagesPorts, csrf: RequestHandler): void {
  router.get('/signin', (req, res) => {
    const next = safeNext(req.query.next);
    if (currentSession(res)) return res.redirect(303, next);
    const notice = req.query.signedout !== undefined ? 'You are signed out.' : undefined;
    res.type('html').send(signInPage({ nonce: nonceOf(res), csrf: csrfToken(req, res), next, notice }));
  });

  router.post('/signin', csrf, async (req, res) => {
    const form = bodyFields(req);
    const email = text(form.email);
    const next = safeNext(form.next);
    const result = await signIn(ports, email, text(form.password));
    if (!result.ok && result.retryAfterSeconds !== undefined) {
      // Locked for a while: 429 with the wait, as every limit answers (RateLimit-* name the free failures).
      res.set({
        'Retry-After': String(result.retryAfterSeconds),
        'RateLimit-Limit': String(ports.backoff.policy.freeFailures),
        'RateLimit-Remaining': '0',
        'RateLimit-Reset': String(result.retryAfterSeconds),
      });
      return res
        .status(429)
        .type('html')
        .send(signInPage({ nonce: nonceOf(res), csrf: csrfToken(req, res), error: result.message, email, next }));
    }
    if (!result.ok) {
      return res
        .status(401)
        .type('html')
        .send(signInPage({ nonce: nonceOf(res), csrf: csrfToken(req, res), error: result.message, email, next }));
    }
    const previous = cookieOf(req, cookiesOf(res).session);
    if (previous) await ports.sessions.delete(previous);
    startSession(ports, req, res, result.token);
    res.redirect(303, next);
  });
}

function addSignOutPages(router: Router, ports: PagesPorts, csrf: RequestHandler): void {
  router.get('/signout', (req, res) => {
    if (!currentSession(res)) return res.redirect(303, '/signin');
    res.type('html').send(
      messagePage({
        nonce: nonceOf(res),
        title: 'Sign out',
        message: 'Sign out of Postbus on this browser?',
        action: signOutForm(csrfToken(req, res)),
      }),
    );
  });

  router.post('/signout', csrf, async (req, res) => {
    const token = cookieOf(req, cookiesOf(res).session);
    if (token) await ports.sessions.delete(token);
    res.clearCookie(cookiesOf(res).session, cookieOptions(req, res));
    res.redirect(303, '/signin?signedout');
  });
}

interface SettingsView {
  status?: number;
  created?: { key: string; name: string };
  form?: KeyFormValues;
  error?: string;
  notice?: string;
  /** Profiles read already (null: connections did not answer); absent: read them. */
  profiles?: ProfileChoice[] | null;
}

/** Settings: the account, its keys, connected profiles and applications; issuing and revoking keys and grants. */
function addSettingsPages(router: Router, ports: PagesPorts, csrf: RequestHandler): void {
  const renderSettings = (req: Request, res: Response, extra: SettingsView = {}) =>
    sendSettings(ports, req, res, extra);

  router.get('/settings', signedInOnly, async (req, res) => {
    let notice: string | undefined;
    if (typeof req.query.revoked === 'string') {
      const key = await ports.keys.find(req.query.revoked, currentSession(res)!.accountId);
      if (key) notice = `The key “${key.name}” is revoked; requests with it now answer invalid_api_key.`;
    }
    if (typeof req.query.disconnected === 'string') {
      const app = await ports.grants.findConnected(req.query.disconnected, currentSession(res)!.userId);
      if (app?.revokedAt) notice = `“${app.clientName}” no longer has access to your account; it has to ask you again.`;
    }
    await renderSettings(req, res, { notice });
  });

  router.post('/settings/keys', signedInOnly, csrf, async (req, res) => {
    const session = currentSession(res)!;
    const form = readKeyForm(bodyFields(req));
    const profiles = await ports.listProfiles(session);
    try {
      const owned = profiles && new Set(profiles.map((p) => p.id));
      const input = toIssueKeyInput(form, { accountId: session.accountId, userId: session.userId }, owned);
      const { key } = await ports.issueKey(input);
      await renderSettings(req, res, {
        status: 201,
        created: { key, name: input.name.trim() },
        profiles: profiles ?? null,
      });
    } catch (err) {
      if (!isAppError(err) || err.code !== 'validation_error') throw err;
      await renderSettings(req, res, { status: 400, form, error: err.message, profiles: profiles ?? null });
    }
  });

  router.post('/settings/keys/:keyId/revoke', signedInOnly, csrf, async (req, res) => {
    const keyId = String(req.params.keyId);
    await ports.revokeKey(keyId, currentSession(res)!.accountId);
    res.redirect(303, `/settings?revoked=${encodeURIComponent(keyId)}`);
  });

  // Revokes a connected application's grant: every token issued under it stops working at once.
  router.post('/settings/applications/:grantId/revoke', signedInOnly, csrf, async (req, res) => {
    const grantId = String(req.params.grantId);
    await ports.grants.revokeGrant(grantId, 'revoked by the person in settings', {
      userId: currentSession(res)!.userId,
    });
    res.redirect(303, `/settings?disconnected=${encodeURIComponent(grantId)}`);
  });
}

async function sendSettings(ports: PagesPorts, req: Request, res: Response, extra: SettingsView): Promise<void> {
  const session = currentSession(res)!;
  const account = await ports.accounts.find(session.accountId);
  if (!account) throw new AppError('not_found', 'This account no longer exists.');
  const [keys, profiles, applications] = await Promise.all([
    ports.keys.listForAccount(session.accountId),
    extra.profiles === undefined ? ports.listProfiles(session) : (extra.profiles ?? undefined),
    ports.grants.listConnected(session.userId, ports.config.OAUTH_GRANT_MAX_DAYS),
  ]);
  res
    .status(extra.status ?? 200)
    .type('html')
    .send(
      settingsPage({
        nonce: nonceOf(res),
        csrf: csrfToken(req, res),
        email: session.email,
        account: toAccountSummary(account, ports.config),
        keys,
        profiles,
        applications,
        created: extra.created,
        form: extra.form ?? EMPTY_KEY_FORM,
        error: extra.error,
        notice: extra.notice,
      }),
    );
}
