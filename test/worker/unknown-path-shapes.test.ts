// A path no route serves, under a client protocol's own (`/v1/messages/batches`, `/v1/models/<id>`,
// `/v1/chat/<anything>`), is a 404 in that protocol's error shape, as the real servers answer it
// (OpenAI's `invalid_request_error`, Anthropic's `not_found_error`): the client's SDK raises its
// NotFoundError with the body it expects, never a shape of the Worker's it reads half of.
import Anthropic from "@anthropic-ai/sdk";
import OpenAI from "openai";
import { describe, expect, it } from "vitest";
import { anthropicClient, openAIClient } from "./client-support.ts";
import { FakeUpstream, testEnv, worker } from "./support.ts";

const env = testEnv({ CLIENT_TOKEN: "t", CORS_ALLOW_ORIGINS: "https://app.test" });

function send(method: string, path: string, headers: Record<string, string> = {}): Promise<Response> {
  return worker().call(
    new Request(`http://localhost:8787${path}`, { method, headers: { authorization: "Bearer t", ...headers } }),
    env,
  );
}

const anthropicShape = { type: "error", error: { type: "not_found_error", message: expect.any(String) } };
const openAIShape = {
  error: { message: expect.any(String), type: "invalid_request_error", param: null, code: "not_found" },
};

describe("an unknown path in the protocol's error shape", () => {
  it("under /v1/messages, or with anthropic-version on any path: Anthropic's not_found_error", async () => {
    for (const [path, headers] of [
      ["/v1/messages/batches", {}],
      ["/v1/messages/msg_1/anything", {}],
      ["/v1/v1/messages", {}],
      ["/v1//messages", {}],
      ["/v1/models/claude-x", { "anthropic-version": "2023-06-01" }],
      ["/v1/files", { "anthropic-version": "2023-06-01" }],
    ] as const) {
      const response = await send("POST", path, headers);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { error: { message: string } };
      expect(body, path).toMatchObject(anthropicShape);
      expect(body.error.message, path).toContain(`No such route: POST ${path}`);
    }
  });

  it("under /v1/chat, /v1/responses, /v1/models (with or without /v1): OpenAI's invalid_request_error", async () => {
    for (const path of [
      "/v1/chat/foo",
      "/v1/chat",
      "/v1/responses/a/b/c",
      "/v1/models/gpt-x",
      "/v1/embeddings",
      "/chat/completions",
    ]) {
      const response = await send("POST", path);
      expect(response.status, path).toBe(404);
      const body = (await response.json()) as { error: { message: string } };
      expect(body, path).toMatchObject(openAIShape);
      expect(Object.keys(body.error), path).toEqual(["message", "type", "param", "code"]);
    }
    // The base-URL hint stays in the message.
    const hinted = (await (await send("POST", "/chat/completions")).json()) as { error: { message: string } };
    expect(hinted.error.message).toContain("This route is /v1/chat/completions");
  });

  it("under /v1/ui: the plain text useChat shows; under /v1/ag-ui: AG-UI's RUN_ERROR", async () => {
    const ui = await send("POST", "/v1/ui/nope");
    expect(ui.status).toBe(404);
    expect(ui.headers.get("content-type")).toBe("text/plain; charset=utf-8");
    expect(ui.headers.get("x-error-code")).toBe("not_found");
    expect(await ui.text()).toMatch(/^No such route: POST \/v1\/ui\/nope/);
    const agUI = await send("POST", "/v1/ag-ui/nope");
    expect(agUI.status).toBe(404);
    expect(await agUI.json()).toMatchObject({ type: "RUN_ERROR", code: "not_found", message: expect.any(String) });
  });

  it("elsewhere: the Worker's own shape, readable by a listed origin", async () => {
    for (const path of ["/nope", "/v1/stream/a/b", "/v1/nothing"]) {
      const response = await send("GET", path, { origin: "https://app.test" });
      expect(response.status, path).toBe(404);
      expect(response.headers.get("access-control-allow-origin"), path).toBe("https://app.test");
      expect(await response.json(), path).toMatchObject({ error: { code: "not_found", message: expect.any(String) } });
    }
    // A protocol's shape keeps the CORS headers too.
    const messages = await send("POST", "/v1/messages/batches", { origin: "https://app.test" });
    expect(messages.headers.get("access-control-allow-origin")).toBe("https://app.test");
  });

  it("@anthropic-ai/sdk raises NotFoundError typed not_found_error, on a batch and on a model", async () => {
    const client = anthropicClient(new FakeUpstream({ kind: "hang" }), env);
    for (const call of [() => client.messages.batches.list(), () => client.models.retrieve("claude-x")]) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(Anthropic.NotFoundError);
      expect(error).toMatchObject({ status: 404, type: "not_found_error", errorCode: "not_found" });
    }
  });

  it("openai-node raises NotFoundError typed invalid_request_error, on a model and on embeddings", async () => {
    const client = openAIClient(new FakeUpstream({ kind: "hang" }), env);
    for (const call of [
      () => client.models.retrieve("gpt-x"),
      () => client.embeddings.create({ model: "openai/x", input: "hi" }),
    ]) {
      const error = await call().then(
        () => undefined,
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(OpenAI.NotFoundError);
      expect(error).toMatchObject({ status: 404, type: "invalid_request_error", code: "not_found", param: null });
    }
  });
});

describe("a wrong method on a route, in the route's protocol shape", () => {
  it("405 with the route's Allow, in each protocol's shape", async () => {
    const cases: [string, string, (response: Response) => Promise<unknown>][] = [
      [
        "/v1/messages",
        "POST, OPTIONS",
        async (r) => expect(await r.json()).toMatchObject({ type: "error", error: { type: "invalid_request_error" } }),
      ],
      [
        "/v1/chat/completions",
        "POST, OPTIONS",
        async (r) =>
          expect(await r.json()).toMatchObject({
            error: { type: "invalid_request_error", param: null, code: "method_not_allowed" },
          }),
      ],
      [
        "/v1/responses",
        "POST, OPTIONS",
        async (r) =>
          expect(await r.json()).toMatchObject({
            error: { type: "invalid_request_error", code: "method_not_allowed" },
          }),
      ],
      ["/v1/ui", "POST, OPTIONS", async (r) => expect(r.headers.get("x-error-code")).toBe("method_not_allowed")],
      [
        "/v1/ag-ui",
        "POST, OPTIONS",
        async (r) => expect(await r.json()).toMatchObject({ type: "RUN_ERROR", code: "method_not_allowed" }),
      ],
      [
        "/v1/models",
        "GET, HEAD, OPTIONS",
        async (r) => expect(await r.json()).toMatchObject({ error: { type: "invalid_request_error" } }),
      ],
    ];
    for (const [path, allow, shape] of cases) {
      const response = await send("PUT", path, { "content-type": "application/json" });
      expect(response.status, path).toBe(405);
      expect(response.headers.get("allow"), path).toBe(allow);
      await shape(response);
    }
  });
});
