import type { ServiceMetrics } from '@postbus/service';
import type { PlatformAdapter } from './adapters/platform-adapter';

/** The same adapters, each publish step timed and counted per platform and outcome. */
export function meterAdapters(
  adapters: Record<string, PlatformAdapter>,
  metrics: ServiceMetrics,
): Record<string, PlatformAdapter> {
  const metered: Record<string, PlatformAdapter> = {};
  for (const [platform, adapter] of Object.entries(adapters)) {
    metered[platform] = {
      resolve: (ctx) => adapter.resolve(ctx),
      rateBuckets: adapter.rateBuckets && ((job) => adapter.rateBuckets!(job)),
      followUps: adapter.followUps,
      async run(ctx) {
        const started = process.hrtime.bigint();
        const seconds = () => Number(process.hrtime.bigint() - started) / 1e9;
        try {
          const result = await adapter.run(ctx);
          metrics.published(platform, result.kind, seconds());
          return result;
        } catch (err) {
          metrics.published(
            platform,
            (err as { transient?: boolean }).transient ? 'transient_error' : 'failed',
            seconds(),
          );
          throw err;
        }
      },
    };
  }
  return metered;
}
