// Review 76 (whole76): 2843f82b sends Amazon Nova 2 a reasoningConfig when a client asks for reasoning, and
// 6a9974ff / be34b0fb leave out the temperature with it (Nova 2 refuses it with reasoning on), but the
// Worker's sampling (worker/upstream/providers/sampling.ts) still adds the client's `top_p` as
// inferenceConfig.topP, which Nova 2 refuses with reasoning on as well (promptfoo's Bedrock Converse
// provider: "When reasoningConfig.type === 'enabled': temperature/topP must NOT be set"). Before this
// stop such a request carried no reasoningConfig and was taken.
import OpenAI from "openai";
import { expect, it } from "vitest";
import { workerFetch } from "./client-support.ts";
import { live } from "./open-responses-support.ts";
import { FakeUpstream } from "./support.ts";

it("Nova 2 with reasoning: no topP beside the reasoningConfig (nor a temperature)", async () => {
  const fake = new FakeUpstream({ kind: "response", status: 500, body: "{}" });
  const openai = new OpenAI({
    baseURL: "http://localhost:8787/v1",
    apiKey: "t",
    fetch: workerFetch({ env: live("bedrock"), upstream: fake }),
    maxRetries: 0,
  });
  await openai.chat.completions
    .create({
      model: "bedrock/us.amazon.nova-2-lite-v1:0",
      messages: [{ role: "user", content: "Plan a trip." }],
      reasoning_effort: "low",
      temperature: 0.3,
      top_p: 0.9,
    })
    .catch(() => undefined);
  const body = fake.requests[0]!.body as Record<string, any>;
  console.log(
    JSON.stringify({ inferenceConfig: body["inferenceConfig"], additional: body["additionalModelRequestFields"] }),
  );
  expect(body["additionalModelRequestFields"]?.reasoningConfig?.type).toBe("enabled");
  expect(body["inferenceConfig"]?.temperature).toBeUndefined();
  expect(body["inferenceConfig"]?.topP).toBeUndefined();
});
