import { CommentStore } from './comments/comment-store';
import { FaultQueue } from './faults';
import { HeldResponses } from './held';
import { IdGenerator } from './ids';
import { OAuthStore } from './oauth/oauth-store';
import { PublishedLog } from './published';
import { ThreadsStore, type ThreadsLimits } from './threads/store';
import { UserRegistry } from './users';
import { FacebookStore, type FacebookLimits } from './facebook/store';
import { InstagramStore, type InstagramLimits } from './instagram/store';
import { PlatformSettingsStore, type EffectiveSettings } from './platform-settings';
import { RequestLog } from './requests';
import { TikTokStore, type TikTokLimits } from './tiktok/store';
import { YouTubeStore, type YouTubeLimits } from './youtube/store';
import type { Platform } from '@postbus/contracts';

export interface SandboxSettings {
  /** How long a media container stays IN_PROGRESS before it is FINISHED (or ERROR). */
  processingDelayMs: number;
  /** Delay added to every emulated platform response (not to /__sandbox). */
  latencyMs: number;
}

export interface SandboxAppOptions {
  processingDelayMs?: number;
  latencyMs?: number;
  /** Clock in epoch milliseconds; tests pass their own to move past 24 h windows. */
  now?: () => number;
  threads?: Partial<ThreadsLimits>;
  instagram?: Partial<InstagramLimits>;
  facebook?: Partial<FacebookLimits>;
  tiktok?: Partial<TikTokLimits>;
  youtube?: Partial<YouTubeLimits>;
}

/** Everything the sandbox remembers: users, published posts, queued faults and each platform's objects. */
export class SandboxState {
  readonly ids = new IdGenerator();
  readonly users = new UserRegistry(this.ids, () => this.now());
  readonly oauth = new OAuthStore();
  readonly published = new PublishedLog();
  readonly faults = new FaultQueue();
  readonly held = new HeldResponses();
  readonly threads: ThreadsStore;
  readonly instagram: InstagramStore;
  readonly facebook: FacebookStore;
  readonly tiktok: TikTokStore;
  readonly youtube: YouTubeStore;
  /** Comments on Instagram accounts and Facebook Pages, their webhook subscriptions and the replies made. */
  readonly comments = new CommentStore();
  /** Every request the emulated platforms received (GET /__sandbox/requests). */
  readonly requests = new RequestLog();
  /** Per-platform latency, processing delay and throttling (POST /__sandbox/settings with `platform`). */
  readonly platformSettings = new PlatformSettingsStore();
  settings: SandboxSettings;
  private readonly initialSettings: SandboxSettings;
  private readonly clock: () => number;

  constructor(opts: SandboxAppOptions = {}) {
    this.initialSettings = { processingDelayMs: opts.processingDelayMs ?? 0, latencyMs: opts.latencyMs ?? 0 };
    this.settings = { ...this.initialSettings };
    this.clock = opts.now ?? Date.now;
    this.threads = new ThreadsStore(opts.threads);
    this.instagram = new InstagramStore(opts.instagram);
    this.facebook = new FacebookStore(opts.facebook);
    this.tiktok = new TikTokStore(opts.tiktok);
    this.youtube = new YouTubeStore(opts.youtube);
  }

  /** The settings a platform runs with: its own overrides over the sandbox-wide ones. */
  settingsFor(platform: Platform): EffectiveSettings {
    return this.platformSettings.resolve(platform, this.settings);
  }

  now(): number {
    return this.clock();
  }

  /** Forgets users, posts, faults and platform objects, drops held requests and restores the start settings. */
  reset(): void {
    this.users.clear();
    this.oauth.clear();
    this.published.clear();
    this.faults.clear();
    this.held.releaseAll();
    this.threads.clear();
    this.instagram.clear();
    this.facebook.clear();
    this.tiktok.clear();
    this.youtube.clear();
    this.comments.clear();
    this.requests.clear();
    this.platformSettings.clear();
    this.settings = { ...this.initialSettings };
  }
}
