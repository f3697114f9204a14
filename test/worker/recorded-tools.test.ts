// At-most-once tools of a resumable run (worker/resumable/recorded-tools.ts): what a handler fails
// with is recorded as it is read, whatever the value (a revoked Proxy's prototype cannot be read).
import { describe, expect, it } from "vitest";
import { ToolHandlerError, type JsonValue, type ToolCall } from "../../src/index.ts";
import { recordedTools } from "../../worker/resumable/recorded-tools.ts";
import { memoryFrameStore as memoryStore } from "./memory-frame-store.ts";

const call: ToolCall = { index: 0, id: "call_1", name: "t", arguments: {}, rawArguments: "{}" };
const context = { call, signal: new AbortController().signal };

describe("recordedTools", () => {
  it("a handler that throws a value whose prototype cannot be read (a revoked Proxy) is recorded as failed, the value thrown on", () => {
    const { proxy, revoke } = Proxy.revocable({}, {});
    revoke();
    const store = memoryStore();
    const tools = recordedTools(
      {
        t: {
          run: () => {
            throw proxy;
          },
        },
      },
      store,
    );
    let thrown: unknown;
    try {
      tools["t"]!.run({} as JsonValue, context);
    } catch (error) {
      thrown = error;
    }
    // Compared by identity: the matcher's diff would touch the revoked Proxy.
    expect(thrown === proxy).toBe(true);
    expect(store.values.get("tool:call_1")).toEqual({
      state: "failed",
      message: "The tool failed.",
      retryable: false,
      handler: false,
    });
  });

  it("a ToolHandlerError is recorded with its message, and a repeated call id answers from the record", async () => {
    const store = memoryStore();
    let runs = 0;
    const tools = recordedTools(
      {
        t: {
          run: () => {
            runs++;
            return Promise.reject(new ToolHandlerError("No such city.", { retryable: true }));
          },
        },
      },
      store,
    );
    await expect(tools["t"]!.run({}, context)).rejects.toThrow("No such city.");
    expect(() => tools["t"]!.run({}, context)).toThrow(ToolHandlerError);
    expect(runs).toBe(1);
  });
});
