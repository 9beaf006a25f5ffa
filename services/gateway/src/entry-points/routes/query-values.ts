/**
 * Query parameters as the RPCs expect them. Express's default (simple) query parser yields a
 * string, or a list of strings for a repeated parameter; anything else (that parser makes none) is
 * written out as JSON rather than as `[object Object]`.
 */
const text = (v: unknown): string => (typeof v === 'string' ? v : JSON.stringify(v));

/** The value of `?name=`, the first one when repeated. */
export const queryValue = (v: unknown): string | undefined =>
  v === undefined ? undefined : text(Array.isArray(v) ? v[0] : v);

/** Repeated parameters and `a,b` lists both become a list. */
export const queryList = (v: unknown): string[] | undefined =>
  v === undefined
    ? undefined
    : (Array.isArray(v) ? v : [v])
        .flatMap((x) => text(x).split(','))
        .map((x) => x.trim())
        .filter(Boolean);

/** `limit=20` → 20; anything else is passed on as is and refused by the contract with validation_error. */
export const queryInteger = (v: unknown): unknown => {
  const s = queryValue(v);
  return s !== undefined && /^\d{1,6}$/.test(s) ? Number(s) : s;
};
