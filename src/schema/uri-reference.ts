/**
 * URI references resolved as RFC 3986 §5.2 says, in plain code: the identifiers of a schema
 * (`$id`, a `$ref` by URI) resolve alike on every runtime. The URL API differs between them on
 * what a host may be (Deno's refuses `http://xn--a.com/`, which Node's, workerd's and Chromium's
 * read), on `file:` URIs (Chromium's keeps `file://localhost/`, the others drop `localhost`) and
 * on IDNA's Unicode version, so one schema's `$ref`s resolved in one runtime and were refused as
 * remote, or its `$id` refused, in another.
 *
 * @module
 */

/** RFC 3986 Appendix B: scheme, authority, path, query, fragment. */
const PARTS = /^(?:([^:/?#]+):)?(?:\/\/([^/?#]*))?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;
/** The authority after its user (up to the last `@`): a host (an IP literal in brackets, or a name), a port of digits. */
const HOST_PORT = /^(\[[^\]]*\]|[^:@[\]]*)(?::(\d*))?$/;
/** The ports RFC 3986 §6.2.3 drops as the scheme's own (`http://h:80/` is `http://h/`). */
const DEFAULT_PORTS: Record<string, string> = { http: "80", https: "443", ws: "80", wss: "443" };

/** ASCII letters to lower case (a runtime's `toLowerCase` follows its Unicode version). */
const lower = (text: string): string => text.replace(/[A-Z]+/g, (letters) => letters.toLowerCase());

let lastBase = "";
let lastParts: RegExpExecArray = PARTS.exec("")!;

/** RFC 3986 §5.2.4 on a path that begins with `/`: `.` and `..` segments removed. */
function withoutDots(path: string): string {
  const out: string[] = [];
  const segments = path.split("/");
  for (let i = 0; i < segments.length; i++) {
    const segment = segments[i]!;
    if (segment === "." || segment === "..") {
      if (segment === ".." && out.length > 1) out.pop();
      if (i === segments.length - 1) out.push("");
    } else out.push(segment);
  }
  return out.join("/");
}

/**
 * `ref` resolved against `base` (an absolute URI this returned, without a fragment), as RFC 3986
 * §5.2.2 says, with the normalizations that do not depend on a character table: the scheme and
 * the host in lower case (ASCII letters), the scheme's default port dropped and an empty path `/`
 * (§6.2.3: http, https, ws, wss), `file://localhost/` as `file:///` (RFC 8089 §2). Returns the
 * absolute URI without its fragment, and the fragment as written (`""` for none); `undefined`
 * when its authority is none (a port of letters, a bracket outside an IP literal), or for a
 * relative reference against a base with an opaque path (`urn:a:b`), which has none to merge with.
 *
 * @example
 * ```ts
 * resolveUri("item.json#/$defs/a", "https://example.com/schemas/root.json");
 * // ["https://example.com/schemas/item.json", "/$defs/a"]
 * ```
 */
export function resolveUri(ref: string, base: string): readonly [uri: string, fragment: string] | undefined {
  const r = PARTS.exec(ref)!;
  // Most references of a schema resolve against one base: parsed once.
  if (base !== lastBase) [lastBase, lastParts] = [base, PARTS.exec(base)!];
  const b = lastParts;
  let [, scheme, authority, path = "", query] = r;
  if (scheme === undefined) {
    scheme = b[1]!;
    if (authority === undefined) {
      if (path === "") [path, query] = [b[3]!, query ?? b[4]];
      // An opaque path (`urn:a:b`) has no segments to merge a relative path with.
      else if (b[2] === undefined && !b[3]!.startsWith("/")) return undefined;
      else if (!path.startsWith("/"))
        path = (b[2] !== undefined && b[3] === "" ? "/" : b[3]!.slice(0, b[3]!.lastIndexOf("/") + 1)) + path;
      authority = b[2];
    }
  }
  scheme = lower(scheme);
  if (authority !== undefined) {
    // Split at the last `@` by hand: a pattern trying each `@` was quadratic in their number.
    const at = authority.lastIndexOf("@");
    const user = at < 0 ? undefined : authority.slice(0, at);
    const parts = HOST_PORT.exec(authority.slice(at + 1));
    if (!parts) return undefined;
    const [, name = "", port] = parts;
    // RFC 8089 §2: `file://localhost/a` is `file:///a`.
    const host = lower(name);
    authority =
      (user === undefined ? "" : `${user}@`) +
      (scheme === "file" && host === "localhost" ? "" : host) +
      (port && port !== DEFAULT_PORTS[scheme] ? `:${port}` : "");
    if (path === "" && DEFAULT_PORTS[scheme]) path = "/";
  }
  if (path.startsWith("/")) path = withoutDots(path);
  return [
    `${scheme}:${authority === undefined ? "" : `//${authority}`}${path}${query === undefined ? "" : `?${query}`}`,
    r[5] ?? "",
  ];
}
