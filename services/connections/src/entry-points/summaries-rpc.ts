import { Rpc } from '@postbus/contracts';
import type { RpcServer } from '@postbus/bus';
import { getProfileSummary } from '../profiles/profile-summary.query';
import type { ProfileRepository } from '../profiles/profile.repository';

/** The figures connections contributes to the account summary. */
export function registerSummariesRpc(rpc: RpcServer, profiles: ProfileRepository): void {
  rpc.handle(Rpc.connectionsProfileSummary, (_input, { principal }) => getProfileSummary(profiles, principal));
}
