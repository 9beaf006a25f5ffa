/**
 * V8 heap sizing every service process starts with (`npm start`, the benchmarks): 16 MB
 * semi-spaces for the young generation and an old generation capped at 128 MB. Left to its
 * defaults, V8 lets an idle service's heap grow to three times what it holds under load before
 * collecting. With 4 MB semi-spaces the state of a request waiting on an RPC outlived a scavenge
 * and was promoted, so the old generation was collected over and over: under the API benchmark
 * the gateway and posts spent 40 % more CPU per request than with 16 MB. Set NODE_OPTIONS to
 * override.
 */
export const SERVICE_NODE_OPTIONS = '--max-semi-space-size=16 --max-old-space-size=128';

/**
 * How a service's TypeScript is loaded: tsx's require hook. `--import tsx` registers ESM loader
 * hooks, which Node 20 runs on a loader thread with a V8 isolate of its own — about 12 MB more
 * resident per process for nothing here (the services are CommonJS; ES-only dependencies load
 * through require).
 */
export const SERVICE_LOADER: readonly string[] = ['--require', 'tsx/cjs'];
