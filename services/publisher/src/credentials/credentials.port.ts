import { AppError, Rpc, type Credentials, type PostDue } from '@postbus/contracts';
import type { RpcClient } from '@postbus/bus';

export type { Credentials };

/** What connections says about a profile's credentials when they cannot be used. */
export type CredentialsProblem =
  { kind: 'disconnected' } | { kind: 'unavailable'; message: string } | { kind: 'refused'; message: string };

export class CredentialsError extends Error {
  constructor(readonly problem: CredentialsProblem) {
    super(problem.kind === 'disconnected' ? 'profile not found' : problem.message);
  }
}

/** The profile's platform credentials, over RPC to connections (the token vault). */
export class CredentialsPort {
  constructor(private readonly rpc: RpcClient) {}

  get(job: PostDue): Promise<Credentials> {
    return this.call(() =>
      this.rpc.call(Rpc.connectionsGetCredentials, { profileId: job.profileId, accountId: job.accountId }),
    );
  }

  /** Asks connections to refresh the token the platform refused; answers the new credentials. */
  refresh(job: PostDue): Promise<Credentials> {
    return this.call(() =>
      this.rpc.call(Rpc.connectionsRefreshCredentials, { profileId: job.profileId, accountId: job.accountId }),
    );
  }

  private async call(fn: () => Promise<Credentials>): Promise<Credentials> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof AppError && err.code === 'service_unavailable')
        throw new CredentialsError({ kind: 'unavailable', message: err.message });
      if (err instanceof AppError && err.code === 'not_found' && !/unknown command/i.test(err.message))
        throw new CredentialsError({ kind: 'disconnected' });
      throw new CredentialsError({ kind: 'refused', message: (err as Error).message });
    }
  }
}
