import { DateTime, type IANAZone } from 'luxon';
import { WEEKDAYS, type ScheduleSlot } from '@postbus/contracts';
import { instantOfLocalMillis, wallTimeOf } from '../posts/local-time';

export interface SlotTime {
  at: Date;
  /** The local time the slot fires at, YYYY-MM-DDTHH:MM (after a skip, the first valid minute). */
  local: string;
}

const DAY = 86_400_000;

/**
 * The next `count` slot times strictly after `after`, in order, each read in `zone` with the same
 * gap and overlap rules as a post's local time. Two slots landing on one instant (both in a skip)
 * are one slot.
 */
export function nextSlotTimes(slots: ScheduleSlot[], zone: IANAZone, after: Date, count: number): SlotTime[] {
  if (!slots.length || count <= 0) return [];
  const byDay = WEEKDAYS.map((day) => [...new Set(slots.filter((s) => s.day === day).map((s) => s.time))].sort());
  // A day early: where clocks fall back across midnight, the previous local day's last slots may still lie ahead.
  const start = DateTime.fromMillis(after.getTime(), { zone }).startOf('day').minus({ days: 1 });
  const startLocal = Date.UTC(start.year, start.month - 1, start.day);
  const out: SlotTime[] = [];
  // A weekly schedule repeats; a week more than needed covers gaps and the early start.
  const days = 7 * (Math.ceil(count / slots.length) + 2);
  for (let d = 0; d < days && out.length < count; d++) {
    const dayLocal = startLocal + d * DAY;
    const weekday = (new Date(dayLocal).getUTCDay() + 6) % 7; // Monday first
    for (const time of byDay[weekday]) {
      const [h, m] = time.split(':').map(Number);
      const at = instantOfLocalMillis(dayLocal + (h * 60 + m) * 60_000, zone);
      if (at <= after.getTime() || (out.length && out[out.length - 1].at.getTime() >= at)) continue;
      out.push({ at: new Date(at), local: wallTimeOf(new Date(at), zone) });
      if (out.length === count) break;
    }
  }
  return out;
}
