import type { CommentReceived, Credentials, Profile, ReplyAction } from '@postbus/contracts';
import type { Database, Logger } from '@postbus/kit';
import type { ActivityRepository } from '../activity/activity.repository';
import type { TemplateRepository } from '../templates/template.repository';

/** One reply to send through a platform's API. */
export interface ReplyRequest {
  platform: string;
  action: ReplyAction;
  accessToken: string;
  /** The platform's id of the account answering (Instagram account, Facebook Page, Bluesky DID). */
  platformUserId: string;
  /** Bluesky through OAuth: the account's PDS and the DPoP key its token is bound to. */
  serviceUrl?: string;
  dpopJwk?: Record<string, string>;
  comment: Pick<CommentReceived, 'commentId' | 'parentId' | 'thread'>;
  text: string;
}

export interface AnswerPorts {
  db: Database;
  activity: ActivityRepository;
  templates: TemplateRepository;
  /** The active profiles connected to the platform account commented on (connections, over RPC). */
  findProfiles(platform: string, platformUserId: string): Promise<Profile[]>;
  /** The profile's token (connections, over RPC); `refresh` asks for a fresh one after the platform refused it. */
  credentials(profile: Profile, opts: { refresh: boolean }): Promise<Credentials>;
  /** Posts the reply; throws PlatformError. */
  sendReply(request: ReplyRequest): Promise<{ id: string }>;
  clock: () => Date;
  logger: Logger;
}
