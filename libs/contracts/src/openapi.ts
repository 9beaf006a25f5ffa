import { ERROR_STATUS, type ErrorCode } from './errors';
import { MEDIA_URL_MAX_LENGTH, PLATFORM_MEDIA_MAX } from './post';
import { LEGACY_WEBHOOK_ACCESS, SCOPES } from './principal';
import { ErrorBodySchema, Routes, type RouteDef } from './routes';

const clean = (schema: unknown): unknown => JSON.parse(JSON.stringify(schema));

const DESCRIPTION = `Postbus schedules and publishes social content to Instagram, TikTok, YouTube, Threads and Facebook for programs: REST clients, automation pipelines and AI agents.

## Quick start
1. Create an API key in settings (\`/settings\`) — it is shown once.
2. Connect a profile: \`POST /api/v1/connections\` with \`{ "platform": "threads" }\` and open the returned \`connectUrl\` in a browser.
3. \`GET /api/v1/connections\` lists profiles; use their ids as \`profileIds\`.
4. \`POST /api/v1/publish\` with \`{ "platforms": ["threads"], "caption": "Hello", "profileIds": ["prf_…"] }\`.
5. Poll \`GET /api/v1/posts/{id}\` until \`status\` is \`posted\` (with \`permalink\`) or \`failed\` (with \`failedReason\`).
   A posted post whose platform did not quite do as asked lists it in \`warnings\` (\`[{ code, message }]\`, e.g.
   \`youtube_private_lock\`: YouTube kept the video private); the webhook event \`post.restricted\` announces those that
   show the post to fewer people than asked.

## Authentication
Every request carries \`Authorization: Bearer <API key>\` (\`sk_live_…\`). Keys are scoped (${SCOPES.map((s) => `\`${s}\``).join(', ')}),
can be revoked, may expire, and may be limited to some profiles. Keys belong in server-side code only.
Agents use the same key, or OAuth 2.1, at \`/api/mcp\`.

A key limited to some profiles sees only those profiles' posts: another profile's post answers \`404 post_not_found\`,
exactly like a post that does not exist, and lists, counts and analytics leave it out. Webhooks receive every
profile's events, so such a key gets \`403 profile_scope_denied\` on every webhook route.

Webhooks need \`webhook:read\` (list and read endpoints and deliveries) or \`webhook:write\` (create, change, delete,
rotate secrets, retry deliveries). Keys issued before these scopes existed that hold \`post:read\` keep webhook access
until ${LEGACY_WEBHOOK_ACCESS.sunset.slice(0, 10)}; until then their webhook answers carry \`Deprecation\`, \`Sunset\` and
\`Link: <…>; rel="deprecation"\`. Issue a key with the webhook scopes to keep that access.

## Errors
Errors are JSON \`{ "error": "<message>", "code": "<stable code>" }\`:

| code | HTTP status |
|---|---|
${Object.entries(ERROR_STATUS)
  .map(([code, status]) => `| \`${code}\` | ${status} |`)
  .join('\n')}

## Limits
- Caption 2,200 characters (Threads 500); TikTok title 150 characters.
- Uploads and link imports up to 50 MB.
- Media items per post: Instagram ${PLATFORM_MEDIA_MAX.instagram}, Facebook ${PLATFORM_MEDIA_MAX.facebook}, Threads ${PLATFORM_MEDIA_MAX.threads}, TikTok ${PLATFORM_MEDIA_MAX.tiktok} photos or one video, YouTube ${PLATFORM_MEDIA_MAX.youtube} video (a \`mediaId\` counts as one). Media links are public http(s) URLs of at most ${MEDIA_URL_MAX_LENGTH} characters without credentials (\`media_url_refused\` otherwise); the publisher does not fetch from private, loopback or link-local addresses.
- 120 requests a minute per key by default: answers carry \`RateLimit-Limit\`, \`RateLimit-Remaining\`, \`RateLimit-Reset\`; over the limit, 429 \`rate_limited\` with \`Retry-After\`.
- Free trial 14 days; scheduling and storage quotas per plan (\`quota_exceeded\`, \`storage_quota_exceeded\`).
`;

function errorCodesFor(route: RouteDef): ErrorCode[] {
  if (route.errors) return route.errors;
  const codes: ErrorCode[] = [
    'missing_api_key',
    'invalid_api_key',
    'insufficient_scope',
    'api_access_disabled',
    'plan_required',
    'rate_limited',
    'service_unavailable',
  ];
  if (route.body || route.query) codes.push('validation_error');
  if (route.body) codes.push('invalid_json');
  if (route.path.includes('{')) codes.push('not_found');
  return codes;
}

function errorResponses(codes: ErrorCode[]): Record<string, unknown> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const c of codes) byStatus.set(ERROR_STATUS[c], [...(byStatus.get(ERROR_STATUS[c]) ?? []), c]);
  const out: Record<string, unknown> = {};
  for (const [status, list] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: list.map((c) => `\`${c}\``).join(', '),
      content: {
        'application/json': {
          schema: { allOf: [{ $ref: '#/components/schemas/Error' }, { properties: { code: { enum: list } } }] },
        },
      },
    };
  }
  return out;
}

function parameters(route: RouteDef): unknown[] {
  const params: unknown[] = [...route.path.matchAll(/\{(\w+)\}/g)].map(([, name]) => ({
    name,
    in: 'path',
    required: true,
    schema: { type: 'string' },
  }));
  const q = route.query as { properties?: Record<string, unknown>; required?: string[] } | undefined;
  for (const [name, schema] of Object.entries(q?.properties ?? {})) {
    params.push({ name, in: 'query', required: q?.required?.includes(name) ?? false, schema: clean(schema) });
  }
  for (const h of route.headers ?? [])
    params.push({
      name: h.name,
      in: 'header',
      required: false,
      description: h.description,
      schema: { type: 'string' },
    });
  return params;
}

/** Operations are grouped by the resource their path names (/publish belongs with posts). */
function tagOf(path: string): string {
  const segment = path.split('/')[3] ?? 'api';
  return segment === 'publish' ? 'posts' : segment;
}

/** One route's operation: its scope, parameters, body and every answer it can give. */
function operationOf(route: RouteDef): Record<string, unknown> {
  const op: Record<string, unknown> = {
    operationId: route.id,
    summary: route.summary,
    description: `${route.summary}\n\nRequires scope \`${route.scope}\`.${route.tool ? ` Agent tool twin: \`${route.tool.name}\`.` : ''}`,
    tags: [tagOf(route.path)],
    security: [{ apiKey: [] }],
    'x-required-scope': route.scope,
    parameters: parameters(route),
    responses: {
      [String(route.status)]: {
        description: 'Success',
        content: { 'application/json': { schema: clean(route.response) } },
      },
      ...(route.status === 201
        ? {
            '200': {
              description: 'An earlier identical request answered again',
              content: { 'application/json': { schema: clean(route.response) } },
            },
          }
        : {}),
      ...errorResponses(errorCodesFor(route)),
    },
  };
  if (route.body) {
    const type = route.bodyContentType ?? 'application/json';
    op.requestBody = { required: true, content: { [type]: { schema: clean(route.body) } } };
  }
  return op;
}

/** GET /api/health, which is served by the gateway itself rather than by a route in the contracts. */
function healthPath() {
  return {
    get: {
      operationId: 'getHealth',
      summary: 'Health of every service, the database and the broker',
      security: [],
      tags: ['health'],
      responses: {
        '200': {
          description: 'All up',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
        },
        '503': {
          description: 'Something is down; named in services',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Health' } } },
        },
      },
    },
  };
}

/** OpenAPI 3.1 for every route in the contracts, built from the same schemas the services validate with. */
export function buildOpenApi(opts: { baseUrl: string; version?: string }) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const route of Object.values(Routes) as RouteDef[])
    (paths[route.path] ??= {})[route.method] = operationOf(route);
  paths['/api/health'] = healthPath();
  return {
    openapi: '3.1.0',
    info: { title: 'Postbus API', version: opts.version ?? '1.0.0', description: DESCRIPTION },
    servers: [{ url: opts.baseUrl }],
    security: [{ apiKey: [] }],
    paths,
    components: {
      securitySchemes: {
        apiKey: { type: 'http', scheme: 'bearer', bearerFormat: 'sk_live_…', description: 'An API key from settings.' },
      },
      schemas: {
        Error: {
          ...(clean(ErrorBodySchema) as object),
          properties: {
            error: { type: 'string' },
            code: { type: 'string', enum: Object.keys(ERROR_STATUS) },
            details: {},
          },
        },
        Health: {
          type: 'object',
          required: ['status', 'services', 'time'],
          properties: {
            status: { enum: ['ok', 'degraded'] },
            services: { type: 'object', additionalProperties: { type: 'string' } },
            time: { type: 'string', format: 'date-time' },
          },
        },
      },
    },
  };
}
