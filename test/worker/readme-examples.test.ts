// The Worker's examples in worker/README.md and README.md answer offline what they show: each `console` block's curl
// request is sent to the Worker (no provider key, as `npm start` runs it) and the events the
// README prints for it (the complete calls and the finish; how fragments fall into deltas depends
// on the pacing) are among those it answers; the run example's answer is written from its tools'
// results; the AG-UI snippet's call is the one its comment shows.
import { describe, expect, it } from "vitest";
import mainReadme from "../../README.md?raw";
import readme from "../../worker/README.md?raw";
import { ManualTimers, worker } from "./support.ts";

/** Each `console` block that starts with `$ curl`: the request and the output shown. */
const examples = [...(readme + mainReadme).matchAll(/```console\n\$ (curl (?:[^\n]*\\\n)*[^\n]*)\n([\s\S]*?)```/g)].map(
  ([, command, output]) => {
    const path = /http:\/\/localhost:8787(\/[^\s']+)/.exec(command!)?.[1];
    const body = /-d '([^']*)'/.exec(command!)?.[1];
    if (path === undefined || body === undefined)
      throw new Error(`a curl example without a path or a body: ${command}`);
    return {
      path,
      body,
      shown: output!.split("\n").filter((line) => /^data: \{"type":"(tool-call|finish)"/.test(line)),
    };
  },
);

const send = (path: string, body: string) =>
  worker(undefined, new ManualTimers()).call(
    new Request(`http://localhost:8787${path}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body,
    }),
  );

describe("worker/README.md's examples, offline", () => {
  it("has curl examples with output", () => {
    expect(examples.length).toBeGreaterThanOrEqual(3);
    for (const example of examples) expect(example.shown.length, example.body).toBeGreaterThan(0);
  });

  for (const example of examples) {
    it(`POST ${example.path} ${example.body.slice(0, 90)}... prints what the README shows`, async () => {
      const response = await send(example.path, example.body);
      expect(response.status).toBe(200);
      const lines = (await response.text()).split("\n").filter((line) => line.startsWith("data: "));
      for (const line of example.shown)
        expect(lines, `the README shows\n${line}\nThe Worker answered:\n${lines.join("\n")}`).toContain(line);
    });
  }

  it("the /v1/run example runs the tools and answers from their results", async () => {
    const command = /```sh\ncurl -N localhost:8787\/v1\/run [^\n]*-d '([\s\S]*?)'\n```/.exec(readme);
    expect(command).not.toBeNull();
    const text = await (await send("/v1/run", command![1]!)).text();
    const finishes = text.split("\n").filter((line) => line.startsWith('data: {"type":"finish"'));
    const answer = (JSON.parse(finishes.at(-1)!.slice(6)) as { text: string }).text;
    expect(answer).toContain("In Asia/Tokyo it is");
    expect(answer).toContain("230 * 17 / 100 = 39.1.");
  });

  it("the AG-UI snippet's run calls get_weather with the city of its message, as its comment shows", async () => {
    const snippet = /\*\*AG-UI\*\*[\s\S]*?```ts\n([\s\S]*?)```/.exec(readme)![1]!;
    const content = /content: "([^"]+)"/.exec(snippet)![1]!;
    const shown = /arguments: '([^']+)'/.exec(snippet)![1]!;
    const tool = { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } };
    const body = {
      threadId: "t",
      runId: "r",
      state: {},
      context: [],
      tools: [tool],
      messages: [{ id: "1", role: "user", content }],
      forwardedProps: { model: /model: "([^"]+)"/.exec(snippet)![1] },
    };
    const text = await (await send("/v1/ag-ui", JSON.stringify(body))).text();
    const args = [...text.matchAll(/^data: (\{"type":"TOOL_CALL_ARGS".*)$/gm)]
      .map((m) => (JSON.parse(m[1]!) as { delta: string }).delta)
      .join("");
    expect(args).toBe(shown);
  });
});
