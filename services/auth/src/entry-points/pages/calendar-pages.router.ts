import type { RequestHandler, Response, Router } from 'express';
import { isAppError } from '@postbus/contracts';
import type { Session } from '../../sessions/session.repository';
import type { CalendarPosts } from './calendar-posts';
import { calendarPostPage } from './calendar-post.page';
import { calendarRange, readCalendarRequest } from './calendar-range';
import { calendarPage, type CalendarPageView } from './calendar.page';
import { csrfToken, currentSession, nonceOf, safeNext } from './page-context';
import type { ProfileChoice } from './settings.page';

export interface CalendarPagesPorts {
  calendarPosts: CalendarPosts;
  listProfiles(session: Session): Promise<ProfileChoice[] | undefined>;
}

/** Signed out: to sign in, then back to the same calendar (safeNext keeps only a same-site path). */
const signedInOnly: RequestHandler = (req, res, next) => {
  if (currentSession(res)) return next();
  res.redirect(303, `/signin?next=${encodeURIComponent(safeNext(req.originalUrl))}`);
};

/** The calendar of the account's posts by local day (week or month) and one post's outcome; read only, no JavaScript. */
export function addCalendarPages(router: Router, ports: CalendarPagesPorts): void {
  router.get('/settings/calendar', signedInOnly, async (req, res) => {
    const session = currentSession(res)!;
    const read = readCalendarRequest(req.query, new Date());
    const page = { nonce: nonceOf(res), csrf: csrfToken(req, res), email: session.email };
    const profiles = await ports.listProfiles(session);
    if (!read.ok) return sendCalendar(res, 400, { ...page, form: read.form, profiles, error: read.error });
    const r = read.request;
    const form = { view: r.view, date: r.date, timezone: r.timezone, profileId: r.profileId ?? '' };
    const range = calendarRange(r.view, r.date);
    try {
      const calendar = await ports.calendarPosts.calendar(session, {
        from: range.from,
        to: range.to,
        timezone: r.timezone,
        ...(r.profileId && { profileId: r.profileId }),
      });
      sendCalendar(res, 200, { ...page, form, request: r, calendar, profiles });
    } catch (err) {
      // posts reads a zone or profile id its own way; its word on them is shown beside the form.
      if (!isAppError(err) || err.status >= 500) throw err;
      sendCalendar(res, err.status, { ...page, form, profiles, error: err.message });
    }
  });

  router.get('/settings/calendar/posts/:postId', signedInOnly, async (req, res) => {
    const session = currentSession(res)!;
    const read = readCalendarRequest(req.query, new Date());
    const request = read.ok ? read.request : { view: 'week' as const, date: '', timezone: 'UTC' };
    const id = String(req.params.postId);
    const [post, profiles] = await Promise.all([ports.calendarPosts.post(session, id), ports.listProfiles(session)]);
    const approval = post.status === 'pending_approval' ? await ports.calendarPosts.approval(session, id) : undefined;
    res.type('html').send(
      calendarPostPage({
        nonce: nonceOf(res),
        csrf: csrfToken(req, res),
        email: session.email,
        post,
        approval,
        profiles,
        request,
      }),
    );
  });
}

function sendCalendar(res: Response, status: number, view: CalendarPageView): void {
  res.status(status).type('html').send(calendarPage(view));
}
