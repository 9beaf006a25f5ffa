import {
  AppError,
  compile,
  describeErrors,
  principalMayUseProfile,
  ScheduleInputSchema,
  SchedulePatchSchema,
  type Principal,
  type ScheduleInput,
  type SchedulePatch,
} from '@postbus/contracts';
import { zoneOf } from '../posts/local-time';
import type { PostsPorts } from '../posts/posts.ports';
import type { ScheduleFields, ScheduleRow } from './schedule.repository';

/** The schedule a create or a change would store, after every rule: shape, zone, the key's profiles, profiles that exist. */
export async function scheduleFieldsOf(
  ports: Pick<PostsPorts, 'listProfiles'>,
  principal: Principal,
  body: unknown,
  current?: ScheduleRow,
): Promise<ScheduleFields> {
  if (typeof body !== 'object' || body === null || Array.isArray(body))
    throw new AppError('validation_error', 'The body must be a JSON object.');
  assertNamedProfilesAllowed(principal, body);
  const check = compile(current ? SchedulePatchSchema : ScheduleInputSchema);
  if (!check(body)) throw new AppError('validation_error', `Invalid schedule: ${describeErrors(check.errors)}`);
  const b: ScheduleInput | SchedulePatch = body;
  if (b.timezone !== undefined && !zoneOf(b.timezone))
    throw new AppError(
      'validation_error',
      'timezone must be an IANA time zone name such as Europe/Berlin or America/New_York.',
      { field: 'timezone' },
    );
  if (b.profileIds) await checkProfiles(ports, principal, b.profileIds);
  const profileIds = b.profileIds ? [...new Set(b.profileIds)] : current!.profile_ids;
  return {
    name: b.name ?? current!.name,
    timezone: b.timezone ?? current!.timezone,
    slots: b.slots ?? current!.slots,
    profile_ids: profileIds,
    posts_per_slot: b.postsPerSlot ?? current?.posts_per_slot ?? 1,
    default_for: defaultsOf(b.defaultFor, profileIds, current),
  };
}

/** The profiles it is the default of: those named, or (unchanged) the current ones it still serves. */
function defaultsOf(named: string[] | undefined, profileIds: string[], current?: ScheduleRow): string[] {
  if (named === undefined) return (current?.default_for ?? []).filter((id) => profileIds.includes(id));
  const outside = named.filter((id) => !profileIds.includes(id));
  if (outside.length)
    throw new AppError(
      'validation_error',
      `defaultFor may name only profiles the schedule serves (profileIds); ${outside.join(', ')} is not one.`,
      { field: 'defaultFor' },
    );
  return [...new Set(named)];
}

/** A profile the key may not use is refused as such, before anything else is looked at (the schedule, the body's shape). */
export function assertNamedProfilesAllowed(principal: Principal, body: unknown): void {
  const named = typeof body === 'object' && body !== null ? (body as { profileIds?: unknown }).profileIds : undefined;
  if (Array.isArray(named))
    assertKeyMayUse(
      principal,
      named.filter((id): id is string => typeof id === 'string'),
    );
}

function assertKeyMayUse(principal: Principal, ids: string[]): void {
  const outside = ids.filter((id) => !principalMayUseProfile(principal, id));
  if (outside.length) throw new AppError('profile_scope_denied', `This key may not use profile ${outside.join(', ')}.`);
}

async function checkProfiles(
  ports: Pick<PostsPorts, 'listProfiles'>,
  principal: Principal,
  ids: string[],
): Promise<void> {
  const found = new Set(
    (await ports.listProfiles(principal, { platforms: [], ids: [...new Set(ids)] })).map((p) => p.id),
  );
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length)
    throw new AppError(
      'invalid_profile_ids',
      `Profile ${missing.join(', ')} is not a connected account of this account.`,
    );
}
