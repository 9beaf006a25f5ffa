import type { SqlRunner } from '@postbus/kit';

export interface CalendarRow {
  id: string;
  platform: string;
  profile_id: string;
  status: string;
  scheduled_time: Date;
  /** The caption cut to the characters a calendar shows, so a long caption never leaves the database. */
  caption: string;
  permalink: string | null;
}

export interface CalendarWindow {
  accountId: string;
  /** First instant of the range, included. */
  start: Date;
  /** First instant after the range, excluded. */
  end: Date;
  profileId?: string;
  /** The caller's profile restriction (undefined: every profile). */
  visibleProfiles?: string[];
  captionChars: number;
  limit: number;
}

/** The account's posts scheduled in [start, end), earliest first. */
export async function postsInWindow(m: SqlRunner, w: CalendarWindow): Promise<CalendarRow[]> {
  return m.query<CalendarRow>(
    `SELECT id, platform, profile_id, status, scheduled_time, left(caption, $6) AS caption, permalink
       FROM posts
      WHERE account_id = $1 AND scheduled_time >= $2 AND scheduled_time < $3
        AND ($4::text IS NULL OR profile_id = $4)
        AND ($5::text[] IS NULL OR profile_id = ANY($5::text[]))
      ORDER BY scheduled_time, id
      LIMIT $7`,
    [w.accountId, w.start, w.end, w.profileId ?? null, w.visibleProfiles ?? null, w.captionChars, w.limit],
  );
}
