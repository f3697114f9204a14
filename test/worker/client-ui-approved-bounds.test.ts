// Approved calls that /v1/ui runs at the edge (or gives back to the client) keep a run's own bound:
// MAX_TOOL_CALLS (64 a response in the tool loop). Found by this stop's per-landing review: on 5c483a1c
// all 200 ran, each output going to the model as history.
import { describe, expect, it } from "vitest";
import type { RunnableTool } from "../../src/index.ts";
import type { Env } from "../../worker/env.ts";
import { uiRoute } from "../../worker/protocols/ui-message/route.ts";
import { ManualTimers } from "./support.ts";
import { live, scripted, WEATHER } from "./open-responses-support.ts";

function weatherTool(ran: unknown[]): Record<string, RunnableTool> {
  return {
    get_weather: {
      description: "Weather.",
      parameters: WEATHER.parameters,
      run: (args) => {
        ran.push(args);
        return { celsius: 18 };
      },
    },
  };
}

async function post(parts: Record<string, unknown>[], ran: unknown[]) {
  const upstream = scripted("openai", { text: "Ok." });
  const response = await uiRoute(
    new Request("http://localhost:8787/v1/ui", {
      method: "POST",
      headers: { authorization: "Bearer t", "content-type": "application/json" },
      body: JSON.stringify({
        model: "openai/m",
        run: true,
        tools: ["get_weather"],
        messages: [
          { id: "u1", role: "user", parts: [{ type: "text", text: "Weather?" }] },
          { id: "a1", role: "assistant", parts: [{ type: "step-start" }, ...parts] },
        ],
      }),
    }),
    live("openai") as Env,
    { fetch: upstream.fetch, timers: new ManualTimers() },
    weatherTool(ran),
  );
  const text = await response.text();
  return { status: response.status, text };
}

const approved = (i: number, input: unknown) => ({
  type: "tool-get_weather",
  toolCallId: `call_${i}`,
  state: "approval-responded",
  input,
  approval: { id: `ap_${i}`, approved: true },
});

describe("POST /v1/ui: approved calls keep the run's bounds", () => {
  it("more than MAX_TOOL_CALLS (64) is a 400 naming the first past it, and none runs", async () => {
    const ran: unknown[] = [];
    const { status, text } = await post(
      Array.from({ length: 200 }, (_, i) => approved(i, { location: "Paris" })),
      ran,
    );
    expect([status, ran.length]).toEqual([400, 0]);
    expect(text).toContain("messages[1].parts[65]");
  });

  it("64 run", async () => {
    const ran: unknown[] = [];
    const { status } = await post(
      Array.from({ length: 64 }, (_, i) => approved(i, { location: "Paris" })),
      ran,
    );
    expect([status, ran.length]).toEqual([200, 64]);
  });
});
