// A schema's identifiers (`$id`, a `$ref` by URI) resolve as RFC 3986 §5.2 says (JSON Schema 2020-12
// core §8.2.1, §8.2.3.1), in the library's own code: the runtimes' URL parsers differ, so one schema
// resolved in one runtime and was refused in another. Deno's refused a host with an `xn--` label that
// is no valid punycode (`http://xn--a.com/`), which Node's, workerd's and Chromium's read; Chromium's
// kept `file://localhost/` where the others read `file:///` (RFC 8089 §2).
import { assertEquals, group } from "../support/harness.ts";
import { check, issues } from "../support/schema-drafts.ts";

const NO_URI = "must be a URI reference (RFC 3986) that resolves against the $ids around it";

/** A schema whose `p` is a string through `ref`, a `$ref` by URI into the resource `$id`. */
const named = ($id: string, ref: string) => ({
  $id,
  $defs: { s: { type: "string" } },
  properties: { p: { $ref: ref } },
});

/** Whether `ref` reached `$defs.s` of the resource `$id`: accepted, and a number at `p` refused. */
function reaches($id: string, ref: string): void {
  assertEquals(issues(named($id, ref)), [], `${$id} <- ${ref}`);
  assertEquals(check({ p: 5 }, named($id, ref)), ["$.p must be string, not number"], `${$id} <- ${ref}`);
}

group("Schema checks: identifiers resolve as RFC 3986 says, alike on every runtime", (test) => {
  test("a host of an xn-- label that is no punycode, or of letters outside ASCII, names its resource", () => {
    // Before, in Deno: `parameters.$id` refused as no URI reference, and the `$ref` as remote.
    reaches("http://xn--a.com/root.json", "http://xn--a.com/root.json#/$defs/s");
    reaches("http://xn--a.com/root.json", "#/$defs/s");
    // A letter of Unicode 17 (Sidetic), which one runtime's IDNA tables may not have.
    reaches("http://\u{10940}.example/root.json", "http://\u{10940}.example/root.json#/$defs/s");
    reaches("http://bücher.example/root.json", "http://bücher.example/root.json#/$defs/s");
  });

  test("file://localhost/ is file:/// (RFC 8089)", () => {
    // Before, in Chromium: the $ref was refused as a remote reference.
    reaches("file://localhost/schemas/root.json", "file:///schemas/root.json#/$defs/s");
    reaches("file:///schemas/root.json", "file://localhost/schemas/root.json#/$defs/s");
  });

  test("the scheme's and host's case, default ports and dot segments are normalized (RFC 3986 §6.2)", () => {
    const $id = "http://example.com/a/root.json";
    reaches($id, "HTTP://Example.COM:80/a/b/../root.json#/$defs/s");
    reaches($id, "./c/./../root.json#/$defs/s");
    reaches($id, "/a/root.json#/$defs/s");
    reaches($id, "//example.com/a/root.json#/$defs/s");
    // Relative to an `$id` in a resource with a path: the RFC's merge.
    const nested = {
      $id: "https://example.com/schemas/root.json",
      properties: { p: { $ref: "../types/item.json" } },
      $defs: { item: { $id: "/types/item.json", type: "string" } },
    };
    assertEquals(issues(nested), []);
    assertEquals(check({ p: 5 }, nested), ["$.p must be string, not number"]);
  });

  test("an $id that is no URI reference (a port of letters, a bracket outside a host) is refused everywhere", () => {
    for (const $id of ["http://example.com:port/root.json", "http://exa[mple.com/root.json", "//[::1/root.json"])
      assertEquals(issues({ $id, type: "object" }), [`parameters.$id: ${NO_URI}`], $id);
    // A relative reference against a URN has no URI (an opaque path has no segments to merge with):
    // not refused, and no `$ref` names it.
    const urn = { $id: "urn:example:root", $defs: { a: { $id: "item.json", type: "string" } } };
    assertEquals(issues(urn), []);
    assertEquals(issues({ ...urn, properties: { p: { $ref: "item.json" } } }), [
      "parameters.properties.p.$ref: must be a local reference (#/$defs/..., #name, or an $id's URI): remote ones are not followed",
    ]);
  });
});
