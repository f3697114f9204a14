import { exports } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../worker/app.ts";
import { DEFAULT_PROMPT, DEFAULT_TOOLS } from "../../worker/page/html.ts";
import { providerNames } from "../../worker/upstream/providers/index.ts";
import { readSSE, streamRequest, testEnv, worker } from "./support.ts";

// These go through the Worker's real default export and wrangler.toml, as `wrangler dev` runs it.
const self = (exports as unknown as { default: { fetch: (request: Request) => Promise<Response> } }).default;
const get = (path: string, init?: RequestInit) => self.fetch(new Request(`http://localhost:8787${path}`, init));

describe("GET /healthz", () => {
  it("answers 200 {status: ok}, uncached, and says nothing about the configuration", async () => {
    const response = await get("/healthz");
    expect(response.status).toBe(200);
    expect(response.headers.get("cache-control")).toBe("no-store");
    expect(await response.json()).toEqual({ status: "ok" });
  });

  it("refuses other methods with 405", async () => {
    const response = await get("/healthz", { method: "POST" });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, HEAD");
  });
});

describe("GET / (the demo page)", () => {
  it("serves HTML with a strict CSP: only its own script, styles and API", async () => {
    const response = await get("/");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/html; charset=utf-8");
    const csp = response.headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("connect-src 'self'");
    const html = await response.text();
    expect(html).toContain('<script type="module" src="/page.js"></script>');
    expect(html).not.toMatch(/<script(?![^>]*src=)/); // no inline script
    expect(html).not.toContain("<style");
  });

  it("labels every control, announces text in a live region and lists the calls", async () => {
    const html = await (await get("/")).text();
    for (const id of ["provider", "model", "prompt", "tools", "token"]) {
      expect(html).toContain(`<label for="${id}">`);
      expect(html).toMatch(new RegExp(`id="${id}"`));
    }
    expect(html).toMatch(/<div id="text"[^>]*aria-live="polite"/);
    expect(html).toMatch(/<p id="status" role="status">/);
    expect(html).toMatch(/<ol id="calls"[^>]*aria-labelledby="calls-heading"/);
    expect(html).toContain('<html lang="en">');
    for (const provider of providerNames) expect(html).toContain(`<option value="${provider}"`);
  });

  it("serves the page script (the library bundled for browsers) and the styles", async () => {
    const script = await get("/page.js");
    expect(script.status).toBe(200);
    expect(script.headers.get("content-type")).toBe("text/javascript; charset=utf-8");
    const code = await script.text();
    expect(code).toContain("/v1/stream");
    expect(code).toContain("ToolCallStreamError"); // the library itself is in the bundle
    expect(code).not.toMatch(/\bimport\s*[{"']/); // self-contained: nothing left to fetch
    const styles = await get("/page.css");
    expect(styles.headers.get("content-type")).toBe("text/css; charset=utf-8");
    expect(await styles.text()).toContain(".card");
  });

  it("answers unknown paths with a JSON 404 and other methods with 405", async () => {
    const missing = await get("/nope");
    expect(missing.status).toBe(404);
    expect(await missing.json()).toMatchObject({ error: { code: "not_found" } });
    expect((await get("/", { method: "DELETE" })).status).toBe(405);
  });

  it("the 404 names the path it was asked for, and a doubled or a missing /v1 as the likely cause", async () => {
    const message = async (path: string) =>
      ((await (await get(path, { method: "POST" })).json()) as { error: { message: string } }).error.message;
    expect(await message("/nope")).toMatch(/^No such route: POST \/nope\. The routes: /);
    // @anthropic-ai/sdk given baseURL "http://localhost:8787/v1" adds its own /v1.
    expect(await message("/v1/v1/messages")).toContain(
      "No such route: POST /v1/v1/messages (a base URL ending in /v1 to which the client adds its own /v1?).",
    );
    // openai-node given baseURL "http://localhost:8787" adds none.
    expect(await message("/chat/completions")).toContain(
      "No such route: POST /chat/completions (a base URL without /v1? This route is /v1/chat/completions: OpenAI's clients take http://<host>/v1).",
    );
    expect(await message("/responses")).toContain(
      "This route is /v1/responses: OpenAI's clients take http://<host>/v1",
    );
    // @ai-sdk/anthropic (or ANTHROPIC_BASE_URL) given "http://localhost:8787" adds no /v1, unlike
    // @anthropic-ai/sdk: the hint names the clients of that route, not OpenAI's.
    expect(await message("/messages")).toContain(
      "(a base URL without /v1? This route is /v1/messages: the AI SDK's Anthropic provider takes http://<host>/v1, @anthropic-ai/sdk and Claude Code http://<host>).",
    );
    // A route no SDK adds a path to (the AI SDK's transport and AG-UI's agent take the whole URL);
    // each 404 in its protocol's shape (`/ui`'s plain text, AG-UI's `RUN_ERROR`).
    for (const path of ["/stream", "/run", "/ui", "/ag-ui"]) {
      const text = await (await get(path, { method: "POST" })).text();
      expect(text, path).toContain(`(a base URL without /v1? This route is /v1${path}).`);
      expect(text, path).not.toContain("OpenAI");
    }
    // A base URL ending in `/` joined by hand, or a path ending in one.
    for (const path of ["/v1//chat/completions", "//v1/messages", "/v1/chat/completions/", "/v1/responses/"])
      expect(await message(path), path).toContain(
        `(a doubled or trailing /? This route is ${path.replace(/\/+/g, "/").replace(/\/$/, "")})`,
      );
    expect(await message("/v1/nope/")).not.toContain("doubled");
  });

  it("the 404 lists exactly the routes served: each answers, in any protocol's shape, something but not found", async () => {
    const { error } = (await (await get("/nope")).json()) as { error: { message: string } };
    const listed = error.message.slice(error.message.indexOf("The routes: ") + "The routes: ".length, -1).split(", ");
    expect(listed).toEqual(ROUTES);
    // `<id>` is one segment: a path with none or more is no route.
    for (const path of ["/v1/stream/", "/v1/run/a/b"])
      expect(await (await get(path)).json(), path).toMatchObject({ error: { code: "not_found" } });
    for (const route of ROUTES) {
      const [methods, path] = route.split(" ") as [string, string];
      for (const method of methods.split("|")) {
        const response = await get(path.replace(/<[^>]+>/g, "x"), { method });
        // OpenAI's and the Worker's `code: "not_found"`, Anthropic's `type: "not_found_error"`.
        const text = await response.text();
        expect(response.status === 404 && /not_found/.test(text), `${method} ${path}: ${text}`).toBe(false);
      }
    }
  });

  it("POST /v1/messages/count_tokens is not served, so not listed: a 404 in Anthropic's shape (Claude Code then estimates)", async () => {
    expect(ROUTES.join(" ")).not.toContain("count_tokens");
    const response = await get("/v1/messages/count_tokens", { method: "POST" });
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ type: "error", error: { type: "not_found_error" } });
  });
});

describe("POST /v1/stream through the deployed entry point", () => {
  it("a bare `wrangler dev` (wrangler.toml's settings, no CLIENT_TOKEN, no OPEN_ACCESS) answers 401 on localhost", async () => {
    const response = await get("/v1/stream", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        provider: "openai",
        model: "gpt-4o-mini",
        messages: [{ role: "user", content: "Tigers game in Detroit?" }],
      }),
    });
    expect(response.status).toBe(401);
    const body = await response.text();
    expect(JSON.parse(body)).toMatchObject({ error: { code: "unauthorized" } });
    expect(body).not.toMatch(/CLIENT_TOKEN|configured|OPEN_ACCESS/);
  });
});

describe("the page's defaults", () => {
  for (const provider of providerNames) {
    it(`${provider}: the default prompt and tools with early_validation, offline, mark no call invalid`, async () => {
      const body = {
        provider,
        model: "m",
        messages: [{ role: "user", content: DEFAULT_PROMPT }],
        tools: DEFAULT_TOOLS,
        early_validation: true,
      };
      const { events } = await readSSE(await worker().call(streamRequest(body), testEnv()));
      expect(
        events.filter((event) => event.type === "tool-call-violation" || event.type === "invalid-tool-call"),
      ).toEqual([]);
      expect(events.at(-1)?.type).toBe("finish");
    });
  }
});
