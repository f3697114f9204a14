// Which identifiers each draft declares, as its core spec says (the root's `$schema` picks the
// draft; none reads as 2020-12, with draft 7's `$id: "#name"` kept as an anchor):
// - draft 4 to 7 have no `$anchor` or `$dynamicAnchor`, and ignore an `$id` beside a `$ref` with
//   every other sibling (draft-07 core §8.3): both were still read as anchors;
// - 2019-09 and 2020-12: "$id MUST NOT contain a non-empty fragment" (2020-12 core §8.2.1,
//   2019-09 §8.2.2): `#name` was read as an anchor, now refused by checkToolSchema at its path;
// - draft 6/7 give an `$id` with a URI and a fragment no meaning (draft-07 §8.2.3): its URI is
//   the resource's and its plain name an anchor in it (the name was dropped);
// - "there is no way for a URI to identify more than one schema ... validators SHOULD raise an
//   error condition" (2020-12 §9.1.2, draft-07 §8.3.1), and the same anchor name twice in one
//   resource is undefined (2020-12 §8.2.2, 2019-09 §8.2.3): both were silently first-wins, now
//   refused naming both paths (equal copies, one schema, are not).
import { assert, assertEquals, group } from "../support/harness.ts";
import { check, DRAFT2019, DRAFT2020, DRAFT4, DRAFT6, DRAFT7, issues } from "../support/schema-drafts.ts";

group("Schema checks: the identifiers each draft declares", (test) => {
  test("draft 4 to 7 read no $anchor or $dynamicAnchor, and no $id beside a $ref", () => {
    for (const $schema of [DRAFT4, DRAFT6, DRAFT7])
      for (const key of ["$anchor", "$dynamicAnchor"]) {
        const schema = {
          $schema,
          type: "object",
          definitions: { a: { [key]: "item", type: "string" } },
          properties: { p: { $ref: "#item" } },
        };
        // Before: `#item` reached the `$anchor` (no keyword of these drafts) and checked a string.
        assertEquals(issues(schema), ["parameters.properties.p.$ref: points to nothing in the schema"], $schema);
        assertEquals(check({ p: 5 }, schema), [], "a $ref that names nothing accepts anything");
      }
    // An `$id: "#name"` beside a `$ref` is ignored with the `$ref`'s other siblings.
    const beside = {
      $schema: DRAFT7,
      definitions: { a: { $id: "#item", $ref: "#/definitions/s" }, s: { type: "string" } },
      properties: { p: { $ref: "#item" } },
    };
    assertEquals(issues(beside), ["parameters.properties.p.$ref: points to nothing in the schema"]);
    // Ignored, it names nothing: not another schema's anchor (two such, or one beside the real
    // one), nor an identifier too long to name anything. Before: refused as "names the same anchor".
    const ignored = {
      $schema: DRAFT7,
      definitions: {
        a: { $id: "#n", $ref: "#/definitions/s" },
        b: { $id: "#n", $ref: "#/definitions/t" },
        c: { $id: `#${"x".repeat(3_000)}`, $ref: "#/definitions/s" },
        n: { $id: "#n", type: "number" },
        s: { type: "string" },
        t: { type: "boolean" },
      },
      properties: { p: { $ref: "#n" } },
    };
    assertEquals(issues(ignored), []);
    assertEquals(check({ p: "x" }, ignored), ["$.p must be number, not string"]);
    // Alone, it is draft 7's anchor, as before.
    const alone = { ...beside, definitions: { a: { $id: "#item", type: "string" } } };
    assertEquals(issues(alone), []);
    assertEquals(check({ p: 5 }, alone), ["$.p must be string, not number"]);
    // 2020-12 (declared or not) reads both keywords.
    for (const $schema of [undefined, DRAFT2020]) {
      const schema = {
        $schema,
        $defs: { a: { $anchor: "item", type: "string" } },
        properties: { p: { $ref: "#item" } },
      };
      assertEquals(issues(schema), []);
      assertEquals(check({ p: 5 }, schema), ["$.p must be string, not number"]);
    }
  });

  test("2019-09 and 2020-12 refuse an $id with a non-empty fragment; an empty one names the resource", () => {
    for (const $schema of [DRAFT2019, DRAFT2020]) {
      for (const id of ["#item", "#/$defs/a", "https://x.example/a.json#item"]) {
        const schema = { $schema, $defs: { a: { $id: id, type: "string" } }, properties: { p: { $ref: "#item" } } };
        // Before: `#item` was read as an anchor, the others' fragments dropped, all accepted (the
        // `$ref` to `#item` still finds the first as an anchor, as the checks read what they can).
        const fragment =
          "parameters.$defs.a.$id: must not have a fragment (#...) under 2019-09 and later: a plain name goes in $anchor";
        const nothing = "parameters.properties.p.$ref: points to nothing in the schema";
        assertEquals(issues(schema), id === "#item" ? [fragment] : [nothing, fragment], `${$schema} ${id}`);
      }
      // An empty fragment is allowed ("SHOULD NOT"), and names the URI without it.
      const empty = {
        $schema,
        $id: "https://x.example/root.json#",
        $defs: { a: { $id: "a.json#", type: "string" } },
        properties: { p: { $ref: "https://x.example/a.json" }, q: { $ref: "a.json#" } },
      };
      assertEquals(issues(empty), []);
      assertEquals(check({ p: 5, q: 5 }, empty), ["$.p must be string, not number", "$.q must be string, not number"]);
    }
    // Undeclared: draft 7's `$id: "#name"` is still the anchor the schema means.
    const undeclared = { definitions: { a: { $id: "#item", type: "string" } }, properties: { p: { $ref: "#item" } } };
    assertEquals(issues(undeclared), []);
    assertEquals(check({ p: 5 }, undeclared), ["$.p must be string, not number"]);
  });

  test("draft 6/7: an $id with a URI and a plain-name fragment is that resource, and the anchor in it", () => {
    for (const $schema of [DRAFT6, DRAFT7, undefined]) {
      const schema = {
        $schema,
        $id: "https://x.example/root.json",
        definitions: { a: { $id: "item.json#it", type: "string" } },
        properties: { p: { $ref: "item.json#it" }, q: { $ref: "https://x.example/item.json" } },
      };
      // Before: the fragment was dropped, `item.json#it` pointed to nothing (refused, and accepted anything).
      assertEquals(issues(schema), [], String($schema));
      assertEquals(check({ p: 5, q: 5 }, schema), ["$.p must be string, not number", "$.q must be string, not number"]);
    }
  });

  test("2019-09 and later: an $id of an empty fragment alone (#) names its resource's own URI, no clash", () => {
    // The suite's 2019-09 id.json, "Valid use of empty fragments in location-independent $id"
    // ("allowed but discouraged"). Before: refused, as naming nested.json a second time.
    for (const $schema of [DRAFT2019, DRAFT2020, undefined]) {
      const schema = {
        $schema,
        $id: "http://localhost:1234/root",
        $ref: "http://localhost:1234/nested.json#/$defs/B",
        $defs: { A: { $id: "nested.json", $defs: { B: { $id: "#", type: "integer" } } } },
      };
      assertEquals(issues(schema), [], String($schema));
      assertEquals(check("a", schema), ["$ must be integer, not string"]);
      assertEquals(check(1, schema), []);
    }
    // A different schema naming that URI by writing it is still a clash.
    const clash = { $id: "https://x.example/r", $defs: { A: { $id: "n.json", $defs: { B: { $id: "n.json" } } } } };
    assert(
      issues(clash).some((issue) => issue.includes("names the same URI as")),
      JSON.stringify(issues(clash)),
    );
  });

  test("two schemas with one URI, or one anchor name twice in a resource, are refused naming both", () => {
    const twoIds = {
      $id: "https://x.example/root.json",
      $defs: { a: { $id: "item.json", type: "string" }, b: { $id: "https://x.example/item.json", type: "number" } },
      properties: { p: { $ref: "item.json" } },
    };
    // Before: accepted, the first `$id` winning.
    assertEquals(issues(twoIds), [
      "parameters.$defs.b.$id: names the same URI as parameters.$defs.a, a different schema (https://x.example/item.json)",
    ]);
    // Without a root `$id`, the URI is said as the `$id` gives it: not against the base the checks
    // choose for the root (before: "(tool-call-stream:/item.json)", a URI the sender never wrote).
    const relative = { $defs: { a: { $id: "item.json", type: "string" }, b: { $id: "item.json", type: "number" } } };
    assertEquals(issues(relative), [
      'parameters.$defs.b.$id: names the same URI as parameters.$defs.a, a different schema ("item.json")',
    ]);
    const twoAnchors = {
      $defs: { a: { $anchor: "item", type: "string" }, b: { $dynamicAnchor: "item", type: "number" } },
      properties: { p: { $ref: "#item" } },
    };
    assertEquals(issues(twoAnchors), [
      'parameters.$defs.b.$dynamicAnchor: names the same anchor as parameters.$defs.a, a different schema ("item")',
    ]);
    // Draft 7's `$id: "#name"` twice, and an `$id` naming its own resource's URI again.
    const draft7 = { $schema: DRAFT7, definitions: { a: { $id: "#n" }, b: { items: { $id: "#n", type: "string" } } } };
    assertEquals(issues(draft7), [
      'parameters.definitions.b.items.$id: names the same anchor as parameters.definitions.a, a different schema ("n")',
    ]);
    const again = { $id: "https://x.example/r.json", properties: { p: { $id: "r.json", type: "string" } } };
    assertEquals(issues(again), [
      "parameters.properties.p.$id: names the same URI as parameters, a different schema (https://x.example/r.json)",
    ]);
    // The same name in two resources, and equal copies (whatever their key order), are one schema each.
    const copies = {
      $defs: {
        a: { $id: "https://x.example/c.json", type: "string", $defs: { n: { $anchor: "n", minLength: 1 } } },
        b: { type: "string", $defs: { n: { minLength: 1, $anchor: "n" } }, $id: "https://x.example/c.json" },
        c: { $id: "https://x.example/d.json", $defs: { n: { $anchor: "n", minLength: 2 } } },
      },
      properties: { p: { $ref: "https://x.example/c.json#n" } },
    };
    assertEquals(issues(copies), []);
    assertEquals(check({ p: "" }, copies), ["$.p must have at least 1 characters"]);
  });

  test("hostile: thousands of one $id are bounded, and their reports capped", () => {
    const many = (same: boolean) => ({
      $defs: Object.fromEntries(
        Array.from({ length: 5_000 }, (_, i) => [
          `d${i}`,
          { $id: "https://x.example/s.json", maxLength: same ? 1 : i },
        ]),
      ),
    });
    assertEquals(issues(many(true)), []);
    const said = issues(many(false));
    assertEquals(said.length, 21, "20 issues and one that counts the rest");
    assertEquals(said[20], "parameters: and 4,979 more problems");
    assert(said[0]!.startsWith("parameters.$defs.d1.$id: names the same URI as parameters.$defs.d0"), said[0]!);
    // Telling copies apart costs canonical JSON of each (as uniqueItems counts it), within 250,000
    // steps for the whole schema, some 25 ms: past them two are not told apart (no clash, the
    // first named wins). Within the walk's 4,000,000 they were: 100 copies in a 1 MB body, 120 ms.
    const big = (n: number) => ({
      $id: "https://x.example/b.json",
      enum: Array.from({ length: 30_000 }, (_, i) => ({ i })),
      maxLength: n,
    });
    assertEquals(issues({ $defs: { a: big(1), b: big(2) } }), []);
    const small = (n: number) => ({ ...big(n), enum: [] });
    assertEquals(issues({ $defs: { a: small(1), b: small(2) } }).length, 1);
  });

  test("hostile: past the comparisons' steps, no copy of one $id is read again", () => {
    // The first copy runs the 250,000 steps out (its first key, in sorted order, read through a
    // getter that counts), then each later copy is one more comparison. Before: each read the first
    // copy again up to where the steps ran out (its whole first string: 1,000 copies of 8 bytes
    // after a 100 KB string took seconds), so the work grew with copies times size.
    const reads = (copies: number): number => {
      let count = 0;
      const first = { $id: "https://x.example/u.json", "!": Array.from({ length: 32_000 }, () => []) };
      Object.defineProperty(first, " ", { enumerable: true, get: () => `${count++}` });
      const defs: Record<string, unknown> = { first };
      for (let i = 0; i < copies; i++) defs[`c${i}`] = { $id: "https://x.example/u.json", maxLength: i };
      assertEquals(issues({ $defs: defs }), [], "past the steps, copies are not told apart");
      return count;
    };
    // One read more than the comparisons': the walk for numbers past a double reads each value once.
    assertEquals([reads(100), reads(1_000)], [2, 2]);
  });

  test("hostile: an anchor name past 2,048 characters names nothing, twice or not", () => {
    // Refused as too long, and never a key of the look-up that finds a second schema of one name:
    // V8 hashes a string past 16,383 characters by its length, so 2,000 such names took 30 s to
    // compare (38 ms before d288522b). Before: also "names the same anchor as ...".
    const name = "a".repeat(20_000);
    const long = "must be at most 2,048 characters";
    assertEquals(issues({ $defs: { a: { $anchor: name, type: "string" }, b: { $anchor: name, type: "number" } } }), [
      `parameters.$defs.a.$anchor: ${long}`,
      `parameters.$defs.b.$anchor: ${long}`,
    ]);
    assertEquals(issues({ $defs: { a: { $id: `#${name}` }, b: { $id: `#${name}`, type: "number" } } }), [
      `parameters.$defs.a.$id: ${long}`,
      `parameters.$defs.b.$id: ${long}`,
    ]);
  });
});

group("Schema checks: percent-encoding in a $ref's fragment", (test) => {
  test("decoded before the JSON Pointer is read (RFC 6901 §6); an invalid escape is said to be one", () => {
    const schema = {
      $id: "https://x.example/r.json",
      $defs: { "a b": { type: "string" }, "c%d": { type: "integer" }, "e/f": { type: "boolean" } },
      properties: {
        p: { $ref: "#/$defs/a%20b" },
        q: { $ref: "r.json#/$defs/c%25d" },
        r: { $ref: "#/%24defs/e~1f" },
      },
    };
    assertEquals(issues(schema), []);
    assertEquals(check({ p: 1, q: "x", r: 1 }, schema), [
      "$.p must be string, not number",
      "$.q must be integer, not string",
      "$.r must be boolean, not number",
    ]);
    // Before: "must be a local reference (...): remote ones are not followed", for a local one.
    for (const ref of ["#/$defs/c%d", "r.json#/$defs/%zz"])
      assertEquals(issues({ ...schema, properties: { p: { $ref: ref } } }), [
        "parameters.properties.p.$ref: has a fragment that is no valid percent-encoding (RFC 3986: % and two hex digits)",
      ]);
  });
});
