/**
 * AWS Signature Version 4 for request headers, with WebCrypto only (no SDK, no `node:crypto`):
 * https://docs.aws.amazon.com/IAM/latest/UserGuide/reference_sigv-create-signed-request.html
 *
 * The canonical request is `method`, the canonical path, the canonical query, the signed headers
 * (lower-case names, values trimmed with inner runs of spaces collapsed, sorted by name), the list
 * of their names, and the hex SHA-256 of the payload. The string to sign is the algorithm, the
 * `x-amz-date`, the scope `<yyyymmdd>/<region>/<service>/aws4_request` and the hex SHA-256 of the
 * canonical request; the key is the HMAC-SHA256 chain `"AWS4" + secret`, date, region, service,
 * `aws4_request`. Checked against the published test suite (test/worker/aws-sigv4.test.ts).
 *
 * @module
 */

/** An access key pair, with the session token of temporary credentials. */
export interface AwsCredentials {
  accessKeyId: string;
  secretAccessKey: string;
  /** Sent and signed as `x-amz-security-token`. */
  sessionToken?: string;
}

/** What a signature is scoped to. */
export interface AwsScope {
  region: string;
  /** The signing name of the service (`bedrock` for `bedrock-runtime`). */
  service: string;
}

/** The parts of a request that are signed. */
export interface SignableRequest {
  method: string;
  /** The URL exactly as it is sent: its path is signed as it appears on the wire. */
  url: string;
  /** Every header given is signed (the platform adds `host` from the URL, and it is signed too). */
  headers: Readonly<Record<string, string>>;
  body: string | Uint8Array;
}

/** Options of {@link signAwsRequest}. */
export interface SignOptions {
  /** The signing time; `x-amz-date` is this instant in UTC. */
  date: Date;
  /**
   * Whether the path, already percent-encoded once in a URL, is encoded again, as every service but
   * S3 expects. The published test suite writes its paths unencoded, so its vectors are the single
   * encoding (`false`).
   * @defaultValue true
   */
  doubleEncodePath?: boolean;
}

/** The canonical request and what the signature covers, for checks and debugging. */
export interface CanonicalRequest {
  /** The canonical request text. */
  text: string;
  /** The `SignedHeaders` list: lower-case names joined by `;`. */
  signedHeaders: string;
}

const ALGORITHM = "AWS4-HMAC-SHA256";
const encoder = new TextEncoder();

/**
 * The headers that sign `request`: `x-amz-date`, `x-amz-security-token` with temporary
 * credentials, and `authorization`. Sent together with the request's own headers.
 */
export async function signAwsRequest(
  request: SignableRequest,
  credentials: AwsCredentials,
  scope: AwsScope,
  options: SignOptions,
): Promise<Record<string, string>> {
  const amzDate = toAmzDate(options.date);
  const added: Record<string, string> = { "x-amz-date": amzDate };
  if (credentials.sessionToken !== undefined) added["x-amz-security-token"] = credentials.sessionToken;
  const canonical = await canonicalRequest(
    { ...request, headers: { ...request.headers, ...added } },
    options.doubleEncodePath ?? true,
  );
  const credentialScope = `${amzDate.slice(0, 8)}/${scope.region}/${scope.service}/aws4_request`;
  const toSign = stringToSign(amzDate, credentialScope, await sha256Hex(canonical.text));
  const key = await signingKey(credentials.secretAccessKey, amzDate.slice(0, 8), scope);
  const signature = hex(await hmac(key, toSign));
  added["authorization"] =
    `${ALGORITHM} Credential=${credentials.accessKeyId}/${credentialScope}, SignedHeaders=${canonical.signedHeaders}, Signature=${signature}`;
  return added;
}

/** The canonical request of `request`, whose headers include `x-amz-date` (and the token, if any). */
export async function canonicalRequest(request: SignableRequest, doubleEncodePath = true): Promise<CanonicalRequest> {
  const url = new URL(request.url);
  const headers = new Map<string, string>([["host", url.host]]);
  for (const [name, value] of Object.entries(request.headers))
    headers.set(name.toLowerCase(), value.trim().replace(/\s+/g, " "));
  const names = [...headers.keys()].sort();
  const signedHeaders = names.join(";");
  const text = [
    request.method.toUpperCase(),
    canonicalPath(url.pathname, doubleEncodePath),
    canonicalQuery(url.searchParams),
    ...names.map((name) => `${name}:${headers.get(name)}`),
    "",
    signedHeaders,
    await sha256Hex(request.body),
  ].join("\n");
  return { text, signedHeaders };
}

/** The string to sign: algorithm, date, scope and the canonical request's hash, one per line. */
export function stringToSign(amzDate: string, credentialScope: string, canonicalHash: string): string {
  return [ALGORITHM, amzDate, credentialScope, canonicalHash].join("\n");
}

/** `20150830T123600Z`: the ISO 8601 basic format AWS signs with. */
export function toAmzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");
}

/**
 * Dot segments resolved and empty segments dropped (the rule for services other than S3), then
 * each segment URI-encoded: a second time when the path is already encoded.
 */
function canonicalPath(pathname: string, doubleEncode: boolean): string {
  const segments: string[] = [];
  for (const segment of pathname.split("/")) {
    if (segment === "" || segment === ".") continue;
    if (segment === "..") segments.pop();
    else segments.push(uriEncode(doubleEncode ? segment : decodeURIComponent(segment)));
  }
  const trailing = segments.length > 0 && pathname.endsWith("/") ? "/" : "";
  return `/${segments.join("/")}${trailing}`;
}

/** Parameters encoded, then sorted by name and value on the encoded form. */
function canonicalQuery(params: URLSearchParams): string {
  const pairs = [...params].map(([name, value]) => [uriEncode(name), uriEncode(value)] as const);
  pairs.sort(([a, x], [b, y]) => (a < b ? -1 : a > b ? 1 : x < y ? -1 : x > y ? 1 : 0));
  return pairs.map(([name, value]) => `${name}=${value}`).join("&");
}

/** RFC 3986 encoding: everything but `A-Z a-z 0-9 - _ . ~` as `%XX` of its UTF-8 bytes. */
function uriEncode(text: string): string {
  return encodeURIComponent(text).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

async function signingKey(secret: string, day: string, scope: AwsScope): Promise<ArrayBuffer> {
  let key = await hmac(encoder.encode(`AWS4${secret}`), day);
  for (const part of [scope.region, scope.service, "aws4_request"]) key = await hmac(key, part);
  return key;
}

async function hmac(key: BufferSource, text: string): Promise<ArrayBuffer> {
  const cryptoKey = await crypto.subtle.importKey("raw", key, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
  return crypto.subtle.sign("HMAC", cryptoKey, encoder.encode(text));
}

async function sha256Hex(data: string | Uint8Array): Promise<string> {
  return hex(await crypto.subtle.digest("SHA-256", typeof data === "string" ? encoder.encode(data) : data));
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (byte) => byte.toString(16).padStart(2, "0")).join("");
}
