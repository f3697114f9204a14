/**
 * A 401 or 403 that is an HTML page, not the provider's own refusal: a proxy or a firewall before the
 * provider's API answered (Cloudflare's "Attention Required" or "Access denied" page in front of a
 * provider's host, a corporate proxy's login page, nginx's 403). The providers refuse a key in
 * JSON (OpenAI's `invalid_api_key`, Anthropic's `authentication_error`, Gemini's `PERMISSION_DENIED`,
 * Bedrock's `UnrecognizedClientException`), so telling the operator to check the key there sends
 * them to the wrong place: the Worker's request never reached the API.
 *
 * @module
 */
import { HttpError } from "../response/json-error.ts";

/** Whether a 401 or 403 is labelled a web page: its body's start is then read ({@link proxyRefusal}). */
export function labelledPage(response: Response): boolean {
  const type = response.headers.get("content-type")?.toLowerCase() ?? "";
  return type.includes("text/html");
}

/**
 * The 502 for a 401 or 403 answered with an HTML page (labelled `text/html` and starting with
 * `<`: a server that writes its JSON refusal with no type of its own is labelled so too, and stays
 * the provider's refusal), `upstream_rejected` with `x-should-retry: false` (a retry meets the same
 * page), naming neither the page nor its host; none for any other answer.
 */
export function proxyRefusal(response: Response, start: string): HttpError | undefined {
  const { status } = response;
  if ((status !== 401 && status !== 403) || !labelledPage(response) || !start.trimStart().startsWith("<"))
    return undefined;
  const message =
    `The provider's host answered ${status} with a web page, not the provider's own refusal of the key: ` +
    "a proxy or firewall before its API refused the Worker's request (check its base URL and where the Worker runs from).";
  return new HttpError(
    502,
    { code: "upstream_rejected", message, upstreamStatus: status },
    { "x-should-retry": "false" },
  );
}
