import type { StorageUsage } from '@postbus/contracts';
import type { MediaRepository } from './media.repository';

/** Bytes and count of the account's ready media: what its storage quota is measured against. */
export function getStorageUsage(
  media: Pick<MediaRepository, 'storageUsage'>,
  accountId: string,
): Promise<StorageUsage> {
  return media.storageUsage(accountId);
}
