import { AppError, isPlatform, newId, PLATFORMS, type ConnectionRequest, type Principal } from '@postbus/contracts';
import type { ConnectPorts } from './connect.ports';

/** A single-use handoff link for the principal's account; the person who opens it connects the profile. */
export async function createConnectionRequest(
  ports: Pick<ConnectPorts, 'requests' | 'clock' | 'baseUrl' | 'linkTtlSeconds'>,
  principal: Principal,
  platform: string,
): Promise<ConnectionRequest> {
  if (!isPlatform(platform))
    throw new AppError(
      'unsupported_platform',
      `Unknown platform ${JSON.stringify(platform)}; use one of ${PLATFORMS.join(', ')}.`,
    );
  const expiresAt = new Date(ports.clock().getTime() + ports.linkTtlSeconds * 1000);
  const row = await ports.requests.create({
    id: newId('cnr'),
    accountId: principal.accountId,
    userId: principal.userId,
    credentialId: principal.credential.id,
    platform,
    expiresAt,
  });
  return {
    requestId: row.id,
    platform,
    connectUrl: `${ports.baseUrl}/connect/${row.id}`,
    expiresAt: expiresAt.toISOString(),
  };
}
