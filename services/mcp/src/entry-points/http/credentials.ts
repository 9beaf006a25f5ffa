import type { Request } from 'express';
import { AppError, Rpc, type Principal } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';
import { bearerCredential, type PrincipalCache } from '@postbus/service';

/**
 * Resolves the bearer credential of an MCP request: an `sk_live_` API key (no exchange step)
 * or an access token issued by the authorization server for this resource. Both become the
 * same Principal the REST API uses.
 */
export async function resolvePrincipal(
  req: Request,
  deps: { rpc: RpcClient; cache: PrincipalCache; resource: string },
): Promise<Principal | undefined> {
  const credential = bearerCredential(req);
  if (!credential) return undefined;
  const { token } = credential;
  const hash = credential.digest.toString('hex');
  const cached = deps.cache.get(hash);
  if (cached) return cached;
  try {
    const principal = token.startsWith('sk_live_')
      ? await deps.rpc.call(Rpc.authVerifyKey, { token })
      : await deps.rpc.call(Rpc.authVerifyAccessToken, { token, resource: deps.resource });
    deps.cache.set(hash, principal);
    return principal;
  } catch (err) {
    if (err instanceof AppError && (err.status === 401 || err.status === 403 || err.code === 'not_found'))
      return undefined;
    throw err;
  }
}
