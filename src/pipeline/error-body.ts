/** Most bytes of a non-2xx body read to report the provider's error object. */
const MAX_ERROR_BODY_BYTES = 64 * 1024;

/** Reads at most {@link MAX_ERROR_BODY_BYTES} of an error body, as JSON when it is JSON. */
export async function readErrorBody(response: Response): Promise<unknown> {
  if (!response.body) return undefined;
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  try {
    while (text.length < MAX_ERROR_BODY_BYTES) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
  } catch {
    return undefined; // the status alone still says what happened
  } finally {
    void reader.cancel().catch(() => {});
  }
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // non-JSON bodies (HTML error pages) are not passed on: they may echo internals
  }
}
