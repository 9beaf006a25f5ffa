import type { Credentials, PostDue, PostWarning } from '@postbus/contracts';
import type { MediaFacts } from '@postbus/platforms';

/**
 * Platform-side progress of an attempt, saved before each call that matters. `phase:
 * 'publishing'` is written just before a call that may make the post visible: finding it on
 * a taken-over attempt means the outcome must be asked of the platform, never assumed. `live`
 * marks a post the platform already published while a detail is still awaited (TikTok's post id
 * after moderation): its checks are not bounded by the processing timeout, as failing it would be
 * wrong; the adapter bounds that wait itself.
 */
export type Checkpoint = Record<string, unknown> & { phase?: 'publishing'; live?: true };

export interface PublishContext {
  job: PostDue;
  creds: Credentials;
  /** The media links to publish from: the post's, the first one freshly signed when the post's media is stored with us. Read these, not `job.mediaUrls`. */
  mediaUrls: string[];
  /** What Postbus knows of the stored media behind the first link (type, size, ffprobe's figures); null when the post's media is not stored with us. */
  storedMedia: MediaFacts | null;
  /** A fresh link to the cover frame Postbus made for the video (normalize, no cover given): the platform's cover image when the post names none. */
  coverUrl?: string;
  /** Progress so far; `{}` when the attempt starts from nothing. */
  checkpoint: Checkpoint;
  /** Persists progress (committed before it resolves). Call it before any call that may publish. */
  save(checkpoint: Checkpoint): Promise<void>;
  /** Notes progress that need not be durable yet (harmless platform objects): the next save or hand-off persists it. */
  progress(checkpoint: Checkpoint): void;
}

export interface Published {
  kind: 'published';
  platformPostId: string;
  permalink: string | null;
  /** What the platform did differently from what was asked (YouTube kept the video private). */
  warnings?: PostWarning[];
}

/** The platform is still processing: check again later from `checkpoint`. `what` names it for a reason ("Instagram was still processing the video"). */
export interface Waiting {
  kind: 'waiting';
  checkpoint: Checkpoint;
  what: string;
}

export type StepResult = Published | Waiting;

/**
 * What the platform says about an attempt whose publish call went unanswered: live; not live
 * yet, so the attempt may go on from `checkpoint` without publishing twice; or it cannot tell.
 */
export type Resolution = Published | { kind: 'continue'; checkpoint: Checkpoint } | { kind: 'unknown' };

/**
 * One platform's publishing, as resumable steps. `run` starts from the checkpoint (or from
 * nothing) and goes as far as it can without sleeping: published, or waiting on processing.
 * Errors are PlatformErrors (transient or not, outcomeUnknown, tokenRejected).
 */
export interface PlatformAdapter {
  run(ctx: PublishContext): Promise<StepResult>;
  /** Settles `phase: 'publishing'` by asking the platform (container, publish or upload status). */
  resolve(ctx: PublishContext): Promise<Resolution>;
  /** Rate-limit buckets besides the platform's own (e.g. `facebook.reels`). */
  rateBuckets?(job: PostDue): string[];
  /** First comments and reply chains, where the platform's API takes them (absent: it does not). */
  followUps?: FollowUpSender;
}

/** Platform-side progress of one comment or reply (a Threads reply's container), saved like a checkpoint. */
export type FollowUpProgress = Record<string, unknown>;

/** What a comment or reply is sent with: under `postId` (the published post), answering `parentId` (the post, or the previous reply of a chain). */
export interface FollowUpContext {
  creds: Credentials;
  postId: string;
  parentId: string;
  text: string;
  progress: FollowUpProgress;
  /** Persists progress (committed before it resolves): a harmless platform object worth reusing. */
  save(progress: FollowUpProgress): Promise<void>;
}

export interface SentFollowUp {
  kind: 'sent';
  id: string;
  permalink: string | null;
}

/**
 * A platform's first comments and reply chains. `send` posts one (going on from `progress`), or
 * answers that the platform is still preparing it (a Threads container). `find` settles a send whose
 * answer was lost by asking the platform: there (sent), or not, with the progress to go on from.
 */
export interface FollowUpSender {
  send(ctx: FollowUpContext): Promise<SentFollowUp | { kind: 'waiting'; progress: FollowUpProgress }>;
  find(ctx: FollowUpContext): Promise<SentFollowUp | { kind: 'not_found'; progress: FollowUpProgress }>;
}

export function published(platformPostId: string, permalink: string | null, warnings?: PostWarning[]): Published {
  return warnings?.length
    ? { kind: 'published', platformPostId, permalink, warnings }
    : { kind: 'published', platformPostId, permalink };
}
