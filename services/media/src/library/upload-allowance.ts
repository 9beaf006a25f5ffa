import { AppError, type Principal } from '@postbus/contracts';
import type { MediaPorts } from './media-ports';

/** Plans refused any upload; trial and paid plans may upload within their storage quota. */
const NO_UPLOAD_PLANS = new Set(['expired']);

export interface UploadAllowance {
  quotaBytes: number;
  remainingBytes: number;
}

/** Asks auth for the plan and quota and media's own table for the storage in use. */
export async function getUploadAllowance(
  ports: Pick<MediaPorts, 'accountOf' | 'media'>,
  principal: Principal,
): Promise<UploadAllowance> {
  const account = await ports.accountOf(principal);
  if (NO_UPLOAD_PLANS.has(account.plan))
    throw new AppError('upload_plan_required', "This account's plan has expired; choose a plan to upload media again.");
  const used = await ports.media.usedBytes(ports.media.ds, principal.accountId);
  return { quotaBytes: account.quotas.storageBytes, remainingBytes: account.quotas.storageBytes - used };
}

export function storageQuotaExceeded(remainingBytes: number): AppError {
  return new AppError(
    'storage_quota_exceeded',
    'This file does not fit in the storage left on your plan; delete media or upgrade.',
    { remainingBytes: Math.max(0, remainingBytes) },
  );
}

/** Refuses before any byte is read when nothing is left. */
export function assertRoomLeft(allowance: UploadAllowance): void {
  if (allowance.remainingBytes <= 0) throw storageQuotaExceeded(allowance.remainingBytes);
}
