import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { TSchema, Static } from '@sinclair/typebox';
import { AppError } from './errors';

/** The single ajv instance every service validates with. */
export const ajv = new Ajv({ allErrors: true, strict: false, coerceTypes: false, useDefaults: false });
addFormats(ajv);

const compiled = new WeakMap<object, ValidateFunction>();

export function compile<T extends TSchema>(schema: T): ValidateFunction<Static<T>> {
  let fn = compiled.get(schema);
  if (!fn) {
    fn = ajv.compile(schema);
    compiled.set(schema, fn);
  }
  return fn as ValidateFunction<Static<T>>;
}

export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'invalid input';
  return errors
    .map((e) => {
      const at = e.instancePath ? e.instancePath.slice(1).replace(/\//g, '.') : 'body';
      if (e.keyword === 'additionalProperties')
        return `${at}: unknown field '${(e.params as { additionalProperty: string }).additionalProperty}'`;
      return `${at}: ${e.message}`;
    })
    .join('; ');
}

/** Validates or throws 400 validation_error listing every problem. */
export function assertValid<T extends TSchema>(schema: T, value: unknown, what = 'input'): Static<T> {
  const fn = compile(schema);
  if (!fn(value)) {
    throw new AppError('validation_error', `Invalid ${what}: ${describeErrors(fn.errors)}`, {
      errors: fn.errors?.map((e) => ({ path: e.instancePath, message: e.message })),
    });
  }
  const nul = nulCharacterAt(value);
  if (nul !== undefined)
    throw new AppError(
      'validation_error',
      `Invalid ${what}: ${nul || 'body'} contains the NUL character (\\u0000), which no text may hold.`,
      { errors: [{ path: nul, message: 'contains \\u0000' }] },
    );
  return value;
}

/**
 * Where the first NUL character (U+0000) sits in a value (a JSON pointer; '' for the value itself),
 * or undefined: PostgreSQL text cannot hold it, so it is refused with the rest of the input.
 */
export function nulCharacterAt(value: unknown, path = ''): string | undefined {
  if (typeof value === 'string') return value.includes('\u0000') ? path : undefined;
  if (!value || typeof value !== 'object') return undefined;
  for (const [k, v] of Object.entries(value)) {
    const at = k.includes('\u0000') ? `${path}/${k}` : nulCharacterAt(v, `${path}/${k}`);
    if (at !== undefined) return at;
  }
  return undefined;
}
