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
import type { TikTokAudit } from './tiktok/audit';
import { YouTubeStore, type YouTubeLimits } from './youtube/store';
import { BlueskyStore, type BlueskyLimits } from './bluesky/store';
import { BlueskyOAuthStore, type BlueskyOAuthRules } from './bluesky/oauth-store';
import { MastodonStore, type MastodonSandboxLimits } from './mastodon/store';
import { LinkedInStore, type LinkedInSandboxLimits } from './linkedin/store';
import { PinterestStore, type PinterestSandboxLimits } from './pinterest/store';
import { XStore, type XSandboxLimits } from './x/store';
import type { Platform } from '@postbus/contracts';
import { MetaThrottleStore, type MetaPlatform, type MetaThrottleRule } from './meta/meta-throttle';
import { DEFAULT_GRAPH_RULES, type GraphRules } from './meta/graph-rules';

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
  /** The TikTok client's audit state: unaudited (5 users a day, SELF_ONLY, private accounts) unless relaxed. */
  tiktokAudit?: Partial<TikTokAudit>;
  youtube?: Partial<YouTubeLimits>;
  /** The emulated PDS's session lifetimes and blob size cap. */
  bluesky?: Partial<BlueskyLimits>;
  /** The emulated atproto authorization server's rules (strict by default: https client metadata on public hosts). */
  blueskyOAuth?: Partial<BlueskyOAuthRules>;
  /** The emulated Mastodon instances' limits and media processing time. */
  mastodon?: Partial<MastodonSandboxLimits>;
  /** The emulated LinkedIn's limits, asset processing time and the API versions it serves. */
  linkedin?: Partial<LinkedInSandboxLimits>;
  /** The emulated Pinterest's access level (trial: pins visible to their owner only) and video size cap. */
  pinterest?: Partial<PinterestSandboxLimits>;
  /** The emulated X API's media sizes, video processing time and post window. */
  x?: Partial<XSandboxLimits>;
  /** Graph versions and hosts Facebook and Instagram no longer serve (refused by default). */
  graph?: Partial<GraphRules>;
  /** Meta's call budgets per rolling window (an hour; 24 h for Threads); on by default (DEFAULT_META_THROTTLE), null relaxes one. */
  metaThrottle?: Partial<Record<MetaPlatform, Partial<MetaThrottleRule>>>;
  /** How the emulators read stored media to judge it as the platform would (ffprobe); null turns it off. */
  mediaInspection?: MediaInspection | null;
}

export interface MediaInspection {
  ffprobePath: string;
  /** Longest read of one file, download and ffprobe each. */
  timeoutMs: number;
}

export const DEFAULT_MEDIA_INSPECTION: MediaInspection = { ffprobePath: '/usr/bin/ffprobe', timeoutMs: 10_000 };

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
  readonly bluesky: BlueskyStore;
  /** The atproto OAuth authorization server of the Bluesky emulator: pushed requests, sessions, DPoP nonces. */
  readonly blueskyOAuth: BlueskyOAuthStore;
  readonly mastodon: MastodonStore;
  readonly linkedin: LinkedInStore;
  readonly pinterest: PinterestStore;
  readonly x: XStore;
  /** Comments on Instagram accounts and Facebook Pages, their webhook subscriptions and the replies made. */
  readonly comments = new CommentStore();
  /** Every request the emulated platforms received (GET /__sandbox/requests). */
  readonly requests = new RequestLog();
  /** Per-platform latency, processing delay and throttling (POST /__sandbox/settings with `platform`). */
  readonly platformSettings = new PlatformSettingsStore();
  /** Meta's call budgets and the calls counted against them (POST /__sandbox/meta-throttle). */
  readonly metaThrottle: MetaThrottleStore;
  readonly mediaInspection: MediaInspection | null;
  settings: SandboxSettings;
  /** What Facebook and Instagram Graph refuse: expired versions, the retired video host. */
  graphRules: GraphRules;
  private readonly initialSettings: SandboxSettings;
  private readonly initialGraphRules: GraphRules;
  private readonly clock: () => number;

  constructor(opts: SandboxAppOptions = {}) {
    this.initialSettings = { processingDelayMs: opts.processingDelayMs ?? 0, latencyMs: opts.latencyMs ?? 0 };
    this.settings = { ...this.initialSettings };
    this.initialGraphRules = { ...DEFAULT_GRAPH_RULES, ...opts.graph };
    this.graphRules = { ...this.initialGraphRules };
    this.clock = opts.now ?? Date.now;
    this.threads = new ThreadsStore(opts.threads);
    this.instagram = new InstagramStore(opts.instagram);
    this.facebook = new FacebookStore(opts.facebook);
    this.tiktok = new TikTokStore(opts.tiktok, opts.tiktokAudit);
    this.youtube = new YouTubeStore(opts.youtube);
    this.bluesky = new BlueskyStore(opts.bluesky);
    this.blueskyOAuth = new BlueskyOAuthStore(opts.blueskyOAuth, () => this.now());
    this.mastodon = new MastodonStore(opts.mastodon);
    this.linkedin = new LinkedInStore(opts.linkedin);
    this.pinterest = new PinterestStore(opts.pinterest);
    this.x = new XStore(opts.x);
    this.metaThrottle = new MetaThrottleStore(opts.metaThrottle);
    this.mediaInspection = opts.mediaInspection === undefined ? DEFAULT_MEDIA_INSPECTION : opts.mediaInspection;
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
    this.bluesky.clear();
    this.blueskyOAuth.clear();
    this.mastodon.clear();
    this.linkedin.clear();
    this.pinterest.clear();
    this.x.clear();
    this.comments.clear();
    this.requests.clear();
    this.platformSettings.clear();
    this.metaThrottle.reset();
    this.settings = { ...this.initialSettings };
    this.graphRules = { ...this.initialGraphRules };
  }
}
