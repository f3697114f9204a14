/**
 * HEAD is answered as GET without its content (RFC 9110 §9.3.2): the router hands the GET route a
 * GET request, remembered here as a HEAD's, so that a route whose GET has effects beyond its
 * answer (a resume takes a place among a response's readers) can answer without them.
 *
 * @module
 */

const HEADS = new WeakSet<Request>();

/** The GET request a HEAD `request` is answered as, remembered as a HEAD's ({@link answersHead}). */
export function asGet(request: Request): Request {
  const get = new Request(request, { method: "GET" });
  HEADS.add(get);
  return get;
}

/** Whether `request` is the GET a HEAD is answered as: its answer's body is dropped unread. */
export function answersHead(request: Request): boolean {
  return HEADS.has(request);
}
