/**
 * What a Bedrock 401 or 403 was, in the words of the Worker's 502: AWS names the refusal, as an
 * exception type in the `x-amzn-errortype` header (`AccessDeniedException:http://internal...`,
 * the part after `:` internal) or, in the awsJson protocols, the body's `__type`
 * (`com.amazon.coral.service#ExpiredTokenException`). Bedrock's troubleshooting of its API error
 * codes: AccessDeniedException (403) is a missing permission (the model's access not granted to
 * the account, a policy without `bedrock:InvokeModelWithResponseStream`, expired temporary
 * credentials), not a wrong key; InvalidClientTokenId (403, UnrecognizedClientException) an access
 * key id AWS does not know; a signature that does not match, the secret. Only the type is read, and
 * only when it is an identifier: never the provider's message.
 *
 * @module
 */

import { longMemberName } from "../../../src/core.ts";

/** An exception name: letters and digits, as AWS names them (nothing else of the header is echoed). */
const IDENTIFIER = /^[A-Za-z][A-Za-z0-9]{0,63}$/;

/**
 * The exception type a refusal names: the `x-amzn-errortype` header's before its `:`, else the
 * body's `__type` after its `#`; undefined when neither is an identifier.
 *
 * @example
 * ```ts
 * awsErrorType("AccessDeniedException:http://internal.amazon.com/coral/", ""); // "AccessDeniedException"
 * awsErrorType(null, '{"__type":"com.amazon.coral.service#ExpiredTokenException"}'); // "ExpiredTokenException"
 * ```
 */
export function awsErrorType(header: string | null, body: string): string | undefined {
  const named = header?.split(":")[0]?.trim() ?? bodyType(body);
  return named !== undefined && IDENTIFIER.test(named) ? named : undefined;
}

function bodyType(body: string): string | undefined {
  // Member names V8 parses in quadratic time (src/shared/long-member-name.ts): no JSON to read.
  if (longMemberName(body) !== undefined) return undefined;
  try {
    const type = (JSON.parse(body) as { __type?: unknown } | null)?.__type;
    return typeof type === "string" ? type.slice(type.lastIndexOf("#") + 1).split(":")[0] : undefined;
  } catch {
    return undefined; // not JSON: no type named
  }
}

/** Each refusal's advice, by the exception types AWS gives it. */
const ADVICE: readonly [RegExp, string][] = [
  [
    /^AccessDenied(Exception)?$/,
    "the AWS account has no access to this model, or its IAM policy does not allow invoking it: grant the account access to the model in the Bedrock console and check the policy (or renew expired temporary credentials)",
  ],
  [
    /^(UnrecognizedClientException|InvalidClientTokenId)$/,
    "AWS does not know the access key id: check the `AWS_ACCESS_KEY_ID` secret",
  ],
  [
    /^(InvalidSignatureException|SignatureDoesNotMatch|IncompleteSignature(Exception)?)$/,
    "the request's signature does not match: check the `AWS_SECRET_ACCESS_KEY` secret",
  ],
  [/^ExpiredToken(Exception)?$/, "the session token expired: renew the `AWS_SESSION_TOKEN` secret"],
];

/**
 * The message of Bedrock's refusal of the Worker's credentials, naming its exception type and what
 * to check; a type it does not know (or none) names both key secrets.
 *
 * @example
 * ```ts
 * bedrockAuthRefusal("UnrecognizedClientException"); // "... check the `AWS_ACCESS_KEY_ID` secret."
 * ```
 */
export function bedrockAuthRefusal(type: string | undefined): string {
  const advice =
    (type !== undefined && ADVICE.find(([pattern]) => pattern.test(type))?.[1]) ||
    "check the `AWS_ACCESS_KEY_ID` and `AWS_SECRET_ACCESS_KEY` secrets";
  return `Bedrock refused the Worker's request${type === undefined ? "" : ` (${type})`}; ${advice}.`;
}
