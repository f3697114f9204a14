// The line the operator reads when no CLIENT_TOKEN is set (the dev console of `npm start` with a
// provider key in .dev.vars, or `wrangler tail`): once per isolate, so this file holds only this
// test, and it says how to set the token in each place. The client's 401 says nothing of it.
import { expect, it, vi } from "vitest";
import { streamRequest, testEnv, worker } from "./support.ts";

it("without CLIENT_TOKEN and out of the open mode, the 401 is logged once with how to set the token, deployed and local", async () => {
  const warned = vi.spyOn(console, "warn").mockImplementation(() => {});
  const env = testEnv({ OPENAI_API_KEY: "sk-test" });
  const body = { provider: "openai", model: "m", messages: [{ role: "user", content: "hi" }] };
  for (let i = 0; i < 2; i++) {
    const response = await worker().call(streamRequest(body), env);
    expect(response.status).toBe(401);
    expect(await response.text()).not.toContain("CLIENT_TOKEN");
  }
  expect(warned).toHaveBeenCalledTimes(1);
  const line = String(warned.mock.calls[0]?.[0]);
  expect(line).toContain("npx wrangler secret put CLIENT_TOKEN");
  expect(line).toContain("CLIENT_TOKEN=<any secret> line in .dev.vars");
  expect(line).toContain("holds only while no provider key and no OLLAMA_BASE_URL is set");
  warned.mockRestore();
});
