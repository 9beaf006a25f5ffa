/**
 * V8 heap sizing every service process starts with (`npm start`, the benchmarks): a young
 * generation of 4 MB semi-spaces and an old generation capped at 128 MB. Left to its defaults,
 * V8 lets an idle service's heap grow to three times what it holds under load before collecting;
 * with these, each service stays within 150 MB resident. Set NODE_OPTIONS to override.
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=4 --max-old-space-size=128';
