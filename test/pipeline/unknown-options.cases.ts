// An option name streamToolCalls does not know (a typo from JavaScript, where no type checks it) is
// a TypeError at the call naming it and the options there are, not silently ignored: a misspelt
// limit or signal would leave the default in force while the app believes it set one.
import { streamToolCallBatches, streamToolCalls } from "../../src/index.ts";
import * as bedrock from "../../src/bedrock.ts";
import * as openai from "../../src/openai.ts";
import { assert, assertEquals, group } from "../support/harness.ts";
import { bytes, collect, fromChunks, openAISSE } from "../support/streams.ts";

/** What calling `call` threw (undefined when it did not). */
function thrownBy(call: () => unknown): unknown {
  try {
    call();
  } catch (error) {
    return error;
  }
  return undefined;
}

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
      const thrown = thrownBy(call);
      assert(thrown instanceof TypeError, String(thrown));
      assert(thrown.message.includes("`provder`"), thrown.message);
      for (const known of ["provider", "signal", "maxArgumentsLength", "tools", "jsonSchema"])
        assert(thrown.message.includes(known), `${thrown.message} names ${known}`);
    }
    const limit = thrownBy(() => streamToolCalls(body(), { provider: "openai", maxArgumentLength: 10 } as never));
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
