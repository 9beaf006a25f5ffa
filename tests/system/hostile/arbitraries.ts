import fc from 'fast-check';
import type { RouteDef } from '@postbus/contracts';
import { missingId, pathParams, prefixOfParam } from './support';

const DAY = 86_400_000;

/** Strings a hostile client sends: anything, and the classics. */
export const hostileString = (): fc.Arbitrary<string> =>
  fc.oneof(
    { arbitrary: fc.string({ maxLength: 24 }), weight: 4 },
    { arbitrary: fc.string({ maxLength: 12, unit: 'grapheme' }), weight: 2 },
    {
      arbitrary: fc.constantFrom(
        '',
        ' ',
        '0',
        '-1',
        'null',
        'undefined',
        'true',
        '[]',
        '{}',
        '../../etc/passwd',
        '%00',
        '\u0000',
        "' OR 1=1 --",
        '<script>alert(1)</script>',
        '${7*7}',
        '__proto__',
        'constructor',
        'x'.repeat(3000),
      ),
      weight: 2,
    },
  );

const anyJson = () => fc.jsonValue({ maxDepth: 2 });

/** Times: far ahead (never due while the test runs), past, naive, or nonsense. */
const timestamp = () =>
  fc.oneof(
    fc.integer({ min: 1, max: 365 }).map((d) => new Date(Date.now() + d * DAY).toISOString()),
    fc.integer({ min: 1, max: 365 }).map((d) => new Date(Date.now() - d * DAY).toISOString()),
    fc.constantFrom(
      '2031-05-01T10:00:00',
      '2031-05-01T10:00:00+02:00',
      '2031-02-30T10:00:00Z',
      '9999-12-31T23:59:59Z',
      'tomorrow',
      '1700000000',
    ),
    hostileString(),
  );

/** Links: unreachable or refused at once (a closed loopback port, an unresolvable name), odd schemes, nonsense. */
const link = () =>
  fc.oneof(
    fc.constantFrom(
      'http://127.0.0.1:9/a.jpg',
      'https://nowhere.invalid/b.mp4',
      'ftp://127.0.0.1/c.png',
      'javascript:alert(1)',
      'http://169.254.169.254/latest/meta-data/',
      'file:///etc/passwd',
    ),
    hostileString(),
  );

const isIdField = (name: string) => name !== 'externalId' && /(^id$|Ids?$)/.test(name);
const idPrefixOfField = (name: string): string =>
  ({ profileIds: 'prf', profileId: 'prf', mediaId: 'med', postId: 'pst', id: 'pst' })[name] ?? 'pst';

/** Values for a JSON Schema (TypeBox): mostly of the schema's shape, a part anything at all. */
export function fromSchema(
  schema: any,
  ids: (prefix: string) => string[],
  name = '',
  depth = 0,
): fc.Arbitrary<unknown> {
  const inner = shaped(schema, ids, name, depth);
  return fc.oneof({ arbitrary: inner, weight: 5 }, { arbitrary: anyJson(), weight: 1 });
}

function shaped(schema: any, ids: (prefix: string) => string[], name: string, depth: number): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object' || depth > 4) return anyJson();
  if (isIdField(name)) {
    const own = ids(idPrefixOfField(name));
    const one = fc.oneof(
      ...[
        ...(own.length ? [fc.constantFrom(...own)] : []),
        fc.constant(missingId(idPrefixOfField(name))),
        hostileString(),
      ],
    );
    return schema.type === 'array' ? fc.array(one, { maxLength: 3 }) : one;
  }
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...schema.enum);
  const union = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(union)) return fc.oneof(...union.map((s: any) => shaped(s, ids, name, depth + 1)));
  switch (schema.type) {
    case 'object': {
      const props = Object.entries<any>(schema.properties ?? {});
      const record = fc.record(Object.fromEntries(props.map(([k, s]) => [k, fromSchema(s, ids, k, depth + 1)])), {
        requiredKeys: [],
      });
      return fc
        .tuple(record, fc.option(fc.tuple(hostileString(), anyJson()), { freq: 4 }))
        .map(([r, extra]) => (extra ? { ...r, [extra[0]]: extra[1] } : r));
    }
    case 'array':
      return fc.array(fromSchema(schema.items ?? {}, ids, name, depth + 1), { maxLength: 4 });
    case 'string':
      if (schema.format === 'date-time') return timestamp();
      if (schema.format === 'uri' || /url$/i.test(name)) return link();
      if (/^(scheduledTime|from|to)$/.test(name)) return timestamp();
      return fc.oneof(
        hostileString(),
        fc.string({ minLength: schema.minLength ?? 0, maxLength: Math.min(schema.maxLength ?? 40, 40) }),
      );
    case 'integer':
    case 'number':
      return fc.oneof(
        fc.integer({ min: -5, max: 300 }),
        fc.double(),
        fc.constantFrom(0, -1, 1e15, Number.MAX_SAFE_INTEGER),
      );
    case 'boolean':
      return fc.boolean();
    default:
      return anyJson();
  }
}

/** A query string: the route's own parameters with odd values, repeated ones, and strangers. */
export function queryFor(route: RouteDef, ids: (prefix: string) => string[]): fc.Arbitrary<string> {
  const keys = Object.keys((route.query as any)?.properties ?? {});
  const value = (k: string) =>
    fc.oneof(
      fc.constantFrom(
        '1',
        '5',
        '100',
        '0',
        '101',
        '-1',
        'abc',
        '1e3',
        'posted,draft',
        'threads,nope',
        'scheduled',
        new Date(Date.now() + DAY).toISOString(),
        '2031-05-01T10:00:00',
      ),
      k === 'cursor' ? fc.constantFrom('eyJ4IjoxfQ', 'not-a-cursor', '') : hostileString(),
      k === 'profileId' ? fc.constantFrom(...ids('prf'), missingId('prf')) : hostileString(),
    );
  const pairs = fc.array(
    fc.oneof(
      ...(keys.length ? [fc.constantFrom(...keys).chain((k) => value(k).map((v) => [k, v] as const))] : []),
      fc.tuple(hostileString(), hostileString()),
    ),
    { maxLength: 5 },
  );
  return pairs.map((ps) => {
    const q = new URLSearchParams();
    for (const [k, v] of ps) q.append(k, v);
    const s = q.toString();
    return s ? `?${s}` : '';
  });
}

/** Path parameters: the account's own ids, ids of the right shape that name nothing, and anything. */
export function paramsFor(route: RouteDef, ids: (prefix: string) => string[]): fc.Arbitrary<Record<string, string>> {
  return fc.record(
    Object.fromEntries(
      pathParams(route).map((p) => {
        const prefix = prefixOfParam(route, p) ?? 'pst';
        const own = ids(prefix);
        return [
          p,
          fc.oneof(
            ...[
              ...(own.length ? [{ arbitrary: fc.constantFrom(...own), weight: 3 }] : []),
              { arbitrary: fc.constant(missingId(prefix)), weight: 1 },
              { arbitrary: hostileString().filter((s) => s.trim() !== ''), weight: 2 },
            ],
          ),
        ];
      }),
    ),
  );
}

export type BodyMode = 'json' | 'none' | 'broken' | 'text';
export const bodyMode = (): fc.Arbitrary<BodyMode> =>
  fc.constantFrom<BodyMode>('json', 'json', 'json', 'json', 'json', 'none', 'broken', 'text');
