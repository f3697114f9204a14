// HTTP semantics every route shares: HEAD is answered wherever GET is (RFC 9110 §9.3.2: the GET's
// status and headers, no content), and every answer carries `x-content-type-options: nosniff`
// (every refusal's headers: test/worker/route-error-cors.test.ts).
import { describe, expect, it } from "vitest";
import { ROUTES } from "../../worker/app.ts";
import { post } from "./client-support.ts";
import { AUTH, live, scripted } from "./open-responses-support.ts";
import { responses, testEnv, worker } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t" });
const stored = { ...live("openai-responses"), RESPONSES: responses };

function call(method: string, path: string) {
  return worker().call(new Request(`http://localhost:8787${path}`, { method, headers: AUTH.headers }), env);
}

describe("every answer's headers", () => {
  // Every route's refusals: test/worker/route-error-cors.test.ts.
  it("a successful answer carries nosniff too: the model list, the health check, the UI resume's 204", async () => {
    for (const path of ["/v1/models", "/healthz", "/v1/ui/chat_1/stream"]) {
      const response = await call("GET", path);
      expect(response.status, path).toBeLessThan(300);
      expect(response.headers.get("x-content-type-options"), path).toBe("nosniff");
      await response.body?.cancel();
    }
  });
});

/** GET and HEAD of `path`, side by side: HEAD has GET's status and headers and no body. */
async function expectHeadAsGet(app: ReturnType<typeof worker>, path: string, environment = env): Promise<number> {
  const send = (method: string) =>
    app.call(new Request(`http://localhost:8787${path}`, { method, headers: AUTH.headers }), environment);
  const get = await send("GET");
  const getBody = await get.text();
  const head = await send("HEAD");
  expect(head.status, path).toBe(get.status);
  const headers = (response: Response) =>
    [...response.headers].filter(([name]) => name !== "content-length" && name !== "date");
  expect(headers(head), path).toEqual(headers(get));
  expect(await head.text(), path).toBe("");
  expect(getBody.length > 0 || get.status === 204, path).toBe(true);
  return get.status;
}

describe("HEAD wherever GET is served", () => {
  it("the model list, the page, the health check, the UI resume", async () => {
    const app = worker();
    for (const path of ["/v1/models", "/", "/page.js", "/healthz", "/v1/ui/chat_1/stream"])
      expect(await expectHeadAsGet(app, path), path).toBeLessThan(300);
  });

  it("a stored response and its input items, and the 404 of an unknown one", async () => {
    const app = worker(scripted("openai-responses", { text: "Paris." }));
    const created = await app.call(
      post("/v1/responses", { model: "openai-responses/test-model", input: "Where?" }, AUTH),
      stored,
    );
    const { id } = (await created.json()) as { id: string };
    expect(await expectHeadAsGet(app, `/v1/responses/${id}`, stored)).toBe(200);
    expect(await expectHeadAsGet(app, `/v1/responses/${id}/input_items`, stored)).toBe(200);
    expect(await expectHeadAsGet(app, "/v1/responses/resp_unknown", stored)).toBe(404);
  });

  it("a resume of an unknown response is GET's 404; HEAD is not allowed where GET is not", async () => {
    const app = worker();
    const resumable = { ...env, RESPONSES: responses };
    expect(await expectHeadAsGet(app, "/v1/stream/unknown-id", resumable)).toBe(404);
    for (const path of ["/v1/chat/completions", "/v1/responses/resp_1/cancel"]) {
      const head = await app.call(new Request(`http://localhost:8787${path}`, { method: "HEAD" }), env);
      expect(head.status, path).toBe(405);
      expect(head.headers.get("allow"), path).not.toContain("GET");
    }
  });

  it("the Allow header of a GET route's 405 lists HEAD", async () => {
    for (const path of ["/v1/models", "/v1/ui/chat_1/stream", "/v1/stream/any-id", "/v1/responses/resp_1"]) {
      const response = await call("PUT", path);
      expect(response.status, path).toBe(405);
      expect(response.headers.get("allow"), path).toMatch(/\bGET, HEAD\b/);
    }
  });
});

describe("OPTIONS names what a route takes", () => {
  it("every route's OPTIONS has the Allow of its 405 (RFC 9110 §9.3.7), a preflight or not", async () => {
    const app = worker();
    for (const route of ROUTES) {
      const path = route.split(" ")[1]!.replace(/<[^>]+>/g, "x");
      const send = (method: string) =>
        app.call(new Request(`http://localhost:8787${path}`, { method, headers: AUTH.headers }), env);
      const refused = await send("PUT");
      expect(refused.status, route).toBe(405);
      const options = await send("OPTIONS");
      expect(options.headers.get("allow"), route).toBe(refused.headers.get("allow"));
      expect(refused.headers.get("allow"), route).toContain(route.split(" ")[0]!.split("|")[0]!);
    }
  });
});
