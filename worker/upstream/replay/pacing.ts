/**
 * Delays between replayed events that look like a model streaming: a longer wait for the
 * first event (the time to first token), then delays that vary around the mean. The variation
 * is a fixed function of the event's position, so a replay is the same every time.
 *
 * @returns the delay in milliseconds before event `index`; 0 for every event when `meanMs` is 0.
 */
export function replayDelay(index: number, meanMs: number): number {
  if (meanMs <= 0) return 0;
  if (index === 0) return meanMs * 6;
  const spread = ((index * 7919) % 11) / 10; // 0.0 .. 1.0, stepping irregularly
  return Math.round(meanMs * (0.5 + spread));
}
