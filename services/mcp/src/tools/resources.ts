import { ResourceNotFoundError, type ReadResourceResult, type ResourceLink } from '@modelcontextprotocol/server';
import { AppError, Rpc, type Principal, type Scope } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';

/** Posts and media as resources: what a create tool links to, readable until the post is final. */
export const RESOURCE_TEMPLATES = [
  {
    uriTemplate: 'postbus://posts/{id}',
    name: 'post',
    title: 'A post',
    description:
      'A post as svc_get_post_status answers it (JSON): status, scheduledTime, publishedAt, permalink, failedReason.',
    mimeType: 'application/json',
  },
  {
    uriTemplate: 'postbus://media/{id}',
    name: 'media',
    title: 'A media file',
    description: 'A media asset (JSON): contentType, sizeBytes, what the probe read, and a fresh signed URL.',
    mimeType: 'application/json',
  },
];

type ResourceKind = 'posts' | 'media';
const URI = /^postbus:\/\/(posts|media)\/([A-Za-z0-9_-]{1,64})$/;

function parse(uri: string): { kind: ResourceKind; id: string } | undefined {
  const match = URI.exec(uri);
  return match ? { kind: match[1] as ResourceKind, id: match[2] } : undefined;
}

/** What reading a resource asks of a credential: the REST route's scope for API keys, mcp:read for OAuth. */
export function scopeToRead(uri: string, principal: Principal): string | undefined {
  const target = parse(uri);
  if (!target) return undefined;
  if (principal.credential.type === 'oauth') return 'mcp:read';
  return (target.kind === 'posts' ? 'post:read' : 'media:write') satisfies Scope;
}

/** Whether reading `uri` acts for a caller (one of ours): the endpoint asks for credentials first. Any other URI is simply not found. */
export const isAccountResource = (uri: unknown): boolean => typeof uri === 'string' && URI.test(uri);

/** resources/read: the post or media of the caller's account; another account's or a missing one is not found. */
export async function readResource(
  rpc: RpcClient,
  principal: Principal | undefined,
  uri: string,
): Promise<ReadResourceResult> {
  const target = parse(uri);
  if (!target) throw new ResourceNotFoundError(uri);
  // Credentials were checked before the SDK saw the request; this is a second guard.
  if (!principal) throw new Error('unauthenticated');
  try {
    const data =
      target.kind === 'posts'
        ? await rpc.call(Rpc.postsGet, { id: target.id }, principal)
        : await rpc.call(Rpc.mediaGet, { mediaId: target.id }, principal);
    return { contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(data) }] };
  } catch (err) {
    if (
      err instanceof AppError &&
      (err.code === 'not_found' || err.code === 'media_not_found' || err.code === 'post_not_found')
    )
      throw new ResourceNotFoundError(uri);
    throw err;
  }
}

const link = (kind: ResourceKind, id: string): ResourceLink => ({
  type: 'resource_link',
  uri: `postbus://${kind}/${id}`,
  name: id,
  title: kind === 'posts' ? `Post ${id}` : `Media ${id}`,
  mimeType: 'application/json',
});

/** Links to what a tool's result names (created posts, a stored or promised media), for clients that follow them. */
export function resourceLinksOf(result: Record<string, unknown>): ResourceLink[] {
  const links: ResourceLink[] = [];
  if (Array.isArray(result.postIds))
    for (const id of result.postIds) if (typeof id === 'string') links.push(link('posts', id));
  if (typeof result.mediaId === 'string') links.push(link('media', result.mediaId));
  return links;
}
