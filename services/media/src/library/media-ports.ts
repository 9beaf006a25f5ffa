import type { AccountSummary, Principal } from '@postbus/contracts';
import type { Logger } from '@postbus/kit';
import type { ProbeObject } from '../probe/probe-stored-object';
import type { UrlSigner } from '../serving/url-signer';
import type { MediaStore } from '../storage/media-store';
import type { MediaRepository } from './media.repository';

/** What the media use cases work through; wired by hand in main.ts. */
export interface MediaPorts {
  media: MediaRepository;
  store: MediaStore;
  /** Reads a stored object's figures with ffprobe; media_unreadable when it cannot. */
  probe: ProbeObject;
  signer: UrlSigner;
  /** The {base_url} of URLs answered over RPC. */
  publicBaseUrl: string;
  /** The principal's plan and quotas, from auth. */
  accountOf(principal: Principal): Promise<AccountSummary>;
  /** Called after a transaction wrote outbox rows. */
  announce(): void;
  logger: Logger;
  /** Counts a stored object found missing behind a media row (a metric for operators). */
  countMissingObject(operation: MissingObjectOperation): void;
}

/** Where a missing object was noticed: serving its bytes, or deduplicating new bytes onto it. */
export type MissingObjectOperation = 'serve' | 'dedupe';
