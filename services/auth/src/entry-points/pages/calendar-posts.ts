import {
  isAppError,
  Rpc,
  systemPrincipal,
  type Approval,
  type Calendar,
  type CalendarQuery,
  type Post,
} from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import type { Session } from '../../sessions/session.repository';

/** What the calendar pages read of the signed-in account's posts, asked of the posts service. */
export interface CalendarPosts {
  calendar(session: Session, query: CalendarQuery): Promise<Calendar>;
  post(session: Session, id: string): Promise<Post>;
  /** The latest approval request of a post, or undefined when none was made. */
  approval(session: Session, id: string): Promise<Approval | undefined>;
}

/** The person reads as themselves: every profile of their account, nothing they could change. */
const readerOf = (session: Session) =>
  systemPrincipal({
    service: 'auth.calendar',
    accountId: session.accountId,
    userId: session.userId,
    scopes: ['post:read', 'approval:request'],
  });

export function calendarPostsOf(rpc: RpcClient): CalendarPosts {
  return {
    calendar: (session, query) => rpc.call(Rpc.calendarGet, query, readerOf(session)),
    post: (session, id) => rpc.call(Rpc.postsGet, { id }, readerOf(session)),
    approval: async (session, id) => {
      try {
        return await rpc.call(Rpc.postsGetApproval, { id }, readerOf(session));
      } catch (err) {
        if (isAppError(err) && err.code === 'not_found') return undefined;
        throw err;
      }
    },
  };
}
