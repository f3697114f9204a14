/**
 * How many microtask turns a read may take and still count as ready: a queued item settles a read
 * in one turn in Node and browsers and in two in workerd; a few more let a source behind a short
 * chain of promises count too. I/O and timers never run between microtasks, so nothing that
 * waits for the network fits in them.
 */
const READY_TURNS = 8;

/**
 * Whether `promise` settles within a few microtask turns: the test for "ready" of the batching
 * readers (`readyBatches`, `streamToolCallBatches`), which pass on what they have as soon as the
 * answer is no, so that nothing is held back waiting for I/O. `turns`: how many turns count, for
 * a settling that takes a known few more (a pipe's close after its last write).
 */
export async function settlesSoon(promise: Promise<unknown>, turns: number = READY_TURNS): Promise<boolean> {
  let settled = false;
  promise.then(
    () => void (settled = true),
    () => void (settled = true),
  );
  for (let turn = 0; turn < turns && !settled; turn++) await null;
  return settled;
}
