/**
 * Announcements wake the outbox relay; under load every finished post would start its own
 * relay transaction. Coalescing the wake-ups (at most one per `windowMs`) lets one batch carry
 * the outcomes of many posts, at the price of a few milliseconds of announcement latency.
 */
export function coalescedKick(kick: () => void, windowMs: number): () => void {
  let timer: NodeJS.Timeout | undefined;
  return () => {
    if (windowMs <= 0) return kick();
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      kick();
    }, windowMs);
    timer.unref();
  };
}
