// An option name streamToolCalls does not know (a typo from JavaScript, where no type checks it) is
// a TypeError at the call naming it and the options there are, not silently ignored: a misspelt
// limit or signal would leave the default in force while the app believes it set one.
import { streamToolCallBatches, streamToolCalls } from "../../src/index.ts";
import * as bedrock from "../../src/bedrock.ts";
import * as openai from "../../src/openai.ts";
import { assert, assertEquals, group, thrown } from "../support/harness.ts";
import { bytes, collect, fromChunks, openAISSE } from "../support/streams.ts";

const body = () =>
  fromChunks([bytes(openAISSE([{ choices: [{ index: 0, delta: { content: "Hi" }, finish_reason: "stop" }] }]))]);

group("streamToolCalls unknown options", (test) => {
  test("a misspelt option is a TypeError at the call naming it and the options there are", () => {
    for (const call of [
      () => streamToolCalls(body(), { provder: "openai" } as never),
      () => streamToolCallBatches(body(), { provder: "openai" } as never),
      () => openai.streamToolCalls(body(), { provder: "openai" } as never),
      () => bedrock.streamToolCallBatches(body(), { provder: "openai" } as never),
    ]) {
      const error = thrown(call);
      assert(error instanceof TypeError, String(error));
      assert(error.message.includes("`provder`"), error.message);
      for (const known of ["provider", "signal", "maxArgumentsLength", "tools", "jsonSchema"])
        assert(error.message.includes(known), `${error.message} names ${known}`);
    }
    const limit = thrown(() => streamToolCalls(body(), { provider: "openai", maxArgumentLength: 10 } as never));
    assert(limit instanceof TypeError && limit.message.includes("`maxArgumentLength`"), String(limit));
  });

  test("every documented option, a subpath's plug-ins and an option set to undefined are taken", async () => {
    const options = {
      provider: "openai",
      signal: undefined,
      maxArgumentsLength: 1000,
      maxToolCalls: 4,
      maxEventLength: 1000,
      maxDepth: 8,
      maxTextLength: 1000,
      repair: true,
      partialArguments: false,
      unwrapParallel: false,
      earlyValidation: false,
      abortOnViolation: false,
      validationTimeoutMs: 100,
      batchWindowMs: 0,
      // Plug-ins of the provider subpaths, which the main entry brings itself: not typos.
      builtInCalls: undefined,
      invokeModel: undefined,
      converseCitations: undefined,
      jsonText: undefined,
    } as const;
    const events = await collect(streamToolCalls(body(), options));
    assertEquals(events.at(-1)?.type, "finish");
    const batches = await collect(streamToolCallBatches(body(), options));
    assertEquals(batches.flat().at(-1)?.type, "finish");
  });
});
