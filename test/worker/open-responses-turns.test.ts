// Open Responses conformance of POST /v1/responses over two turns, in workerd with the stored
// responses (the RESPONSES binding), in front of every provider: the spec's compliance cases
// `function-call-roundtrip` (a call forced by `tool_choice: {type: "function"}`, then its
// `function_call_output` after `previous_response_id`, without the tools again) and
// `previous-response-id`, each answer checked against the spec's schemas. Turn 2 reaches the
// provider with turn 1 before it.
import { describe, expect, it } from "vitest";
import type { Provider } from "../../src/index.ts";
import { readConformingResponse } from "../support/open-responses.ts";
import { sharedData } from "../support/shared-data.ts";
import { post } from "./client-support.ts";
import { AUTH, LIVE, live, scripted, WEATHER } from "./open-responses-support.ts";
import { responses, worker } from "./support.ts";

/** A Worker with stored responses in front of `provider`, whose fake answers `first`, then `second`. */
function turns(provider: Provider, first: Parameters<typeof scripted>[1], second: Parameters<typeof scripted>[1]) {
  const upstream = scripted(provider, first);
  const app = worker(upstream);
  const env = { ...live(provider), RESPONSES: responses };
  let turn = 0;
  return {
    upstream,
    send: async (body: Record<string, unknown>) => {
      if (turn++ === 1) upstream.answer = scripted(provider, second).answer;
      const answer = await app.call(post("/v1/responses", { model: `${provider}/test-model`, ...body }, AUTH), env);
      return { status: answer.status, ...(await readConformingResponse(answer)) };
    },
  };
}

/** Ollama has no way to force a call (a 400 naming `tool_choice`, as its own suite shows). */
const FORCES_CALLS = (Object.keys(LIVE) as Provider[]).filter((provider) => provider !== "ollama");

describe.skipIf(!sharedData["open-responses"].available)("Open Responses conformance over two turns", () => {
  for (const provider of FORCES_CALLS)
    it(`${provider}: function-call-roundtrip, the call's output after previous_response_id without the tools`, async () => {
      const { send, upstream } = turns(
        provider,
        { calls: [{ name: "get_weather", arguments: { location: "San Francisco, CA" } }] },
        { text: "It is 64 degrees and clear." },
      );
      const first = await send({
        input: "Use the weather tool to get the temperature in San Francisco.",
        tools: [WEATHER],
        tool_choice: { type: "function", name: "get_weather" },
      });
      expect([first.status, first.issues]).toEqual([200, []]);
      const call = (first.response["output"] as { type: string; call_id: string }[]).find(
        (item) => item.type === "function_call",
      );
      const second = await send({
        previous_response_id: first.response["id"],
        input: [{ type: "function_call_output", call_id: call?.call_id, output: "64 degrees and clear" }],
      });
      expect([second.status, second.issues, second.response["status"]]).toEqual([200, [], "completed"]);
      expect(second.response["output"]).not.toEqual([]);
      expect(JSON.stringify(upstream.requests[1]!.body)).toContain("64 degrees and clear");
    });

  for (const provider of Object.keys(LIVE) as Provider[])
    it(`${provider}: previous-response-id, turn 2 reads turn 1`, async () => {
      const { send, upstream } = turns(provider, { text: "OK" }, { text: "Papaya." });
      const first = await send({ input: "Remember this code word: papaya. Reply with only OK." });
      const second = await send({
        previous_response_id: first.response["id"],
        input: "What code word did I ask you to remember?",
      });
      expect([first.issues, second.status, second.issues, second.response["status"]]).toEqual([
        [],
        200,
        [],
        "completed",
      ]);
      expect(JSON.stringify(upstream.requests[1]!.body)).toContain("papaya");
    });
});
