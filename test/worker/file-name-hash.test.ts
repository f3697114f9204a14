// A filename (Chat `file.filename`, Responses `input_file.filename`) has no query or fragment: a file
// named "Invoice #12.pdf" is typed by its extension; only a URL's `?` and `#` are cut. Found by stop
// 75's per-landing review: d362cd2f cut every name at its first `?` or `#`.
import { describe, expect, it } from "vitest";
import { mediaTypeOfName, mediaTypeOfUrl } from "../../worker/protocols/client-files.ts";

describe("a filename's `#` or `?` is no fragment or query", () => {
  it("Invoice #12.pdf is a PDF, notes #3.json JSON", () => {
    expect(mediaTypeOfName("Invoice #12.pdf", "application/octet-stream")).toBe("application/pdf");
    expect(mediaTypeOfName("notes #3.json", "application/pdf")).toBe("application/json");
  });
  it("a URL's query and fragment still do not count", () => {
    expect(mediaTypeOfUrl("https://x.test/a.pdf?v=2#page=3", "x")).toBe("application/pdf");
  });
});
