// Input items a Responses client sends without an `id`, stored (the RESPONSES binding) and sent
// back to an OpenAI Responses upstream on a later turn, by `previous_response_id` or an
// `item_reference`, openai-node 7 as the client. The Worker gives each stored item an id of its
// own (`GET input_items` lists every item with one), but that id is none of OpenAI's: OpenAI checks
// an id's prefix by the item's type (`ws_` for a web_search_call, ...), and a reasoning item's
// encrypted content is bound to the id OpenAI gave it. Nor does OpenAI take a `status` on a
// `program` item (openai 7's `ResponseInputItem.Program` has none). So the later turn sends OpenAI
// the items as the client sent them the first time; a local shell's call keeps the `lsh_` id the
// Worker's encoder gave it (OpenAI's `LocalShellCall` input requires one). Before: each went back
// with its `item_<token>i<n>` (or `rs_<token>i<n>`) id, and a program with `status: "completed"`.
import type { ResponseInputItem } from "openai-v7/resources/responses/responses";
import { describe, expect, it } from "vitest";
import { storedIdOfItem } from "../../worker/protocols/openai-responses/stored-ids.ts";
import { OPENAI_ANTHROPIC_ENV, openAI7Client } from "./client-support.ts";
import { scripted } from "./open-responses-support.ts";
import type { StoredResponseOp } from "../../worker/resumable/stored-responses.ts";
import { type FakeUpstream, responseObjects, responses } from "./support.ts";

type Item = Record<string, unknown>;
const env = { ...OPENAI_ANTHROPIC_ENV, RESPONSES: responses };
const shelled = { stdout: "bolts.txt", stderr: "", outcome: { type: "exit", exit_code: 0 } };

/** Items of every type the Worker stores and sends back, none with an `id` (a local shell's output names its call by `id`). */
const ID_LESS: Item[] = [
  { role: "user", content: "Find bolt prices, then fix the list." },
  { type: "reasoning", summary: [{ type: "summary_text", text: "Search first." }], encrypted_content: "gAAAA-r" },
  { type: "web_search_call", action: { type: "search", query: "bolt prices" }, status: "completed" },
  { type: "file_search_call", queries: ["bolts"], status: "completed", results: null },
  { type: "code_interpreter_call", code: "3 * 100", container_id: "cntr_1", outputs: null, status: "completed" },
  { type: "image_generation_call", result: null, status: "completed" },
  { type: "program", call_id: "prog_1", code: "await tools.lookup({})", fingerprint: "fp_1" },
  {
    type: "function_call",
    call_id: "call_1",
    name: "lookup",
    arguments: "{}",
    caller: { type: "program", caller_id: "prog_1" },
  },
  {
    type: "function_call_output",
    call_id: "call_1",
    output: "3 cents",
    caller: { type: "program", caller_id: "prog_1" },
  },
  { type: "program_output", call_id: "prog_1", result: "3 cents", status: "completed" },
  { type: "tool_search_call", call_id: null, execution: "server", arguments: { query: "files" }, status: "completed" },
  { type: "tool_search_output", call_id: null, execution: "server", tools: [], status: "completed" },
  { type: "custom_tool_call", call_id: "call_2", name: "note", input: "bolts: 3 cents" },
  { type: "custom_tool_call_output", call_id: "call_2", output: "noted" },
  {
    type: "local_shell_call",
    call_id: "call_3",
    action: { type: "exec", command: ["ls"], env: {} },
    status: "completed",
  },
  { type: "local_shell_call_output", id: "call_3", output: "bolts.txt" },
  { type: "shell_call", call_id: "call_4", action: { commands: ["cat bolts.txt"] }, status: "completed" },
  { type: "shell_call_output", call_id: "call_4", output: [shelled] },
  {
    type: "apply_patch_call",
    call_id: "call_5",
    operation: { type: "delete_file", path: "bolts.txt" },
    status: "completed",
  },
  { type: "apply_patch_call_output", call_id: "call_5", status: "completed", output: "deleted" },
  { type: "mcp_list_tools", server_label: "shop", tools: [] },
  { type: "message", role: "assistant", content: [{ type: "output_text", text: "Bolts: 3 cents.", annotations: [] }] },
  { role: "user", content: "And nuts?" },
];

/**
 * The RESPONSES binding, each stored input item changed by `change` as it is kept: a record as an
 * earlier Worker stored it.
 */
const storedAs = (change: (item: Item) => Item): DurableObjectNamespace =>
  ({
    idFromName: (name: string) => responses.idFromName(name),
    get: (id: DurableObjectId) =>
      new Proxy(responseObjects.get(id), {
        get: (target, key) =>
          key !== "storedResponses"
            ? Reflect.get(target, key)
            : (op: StoredResponseOp) =>
                target.storedResponses(
                  op.type === "keep" && op.earlier
                    ? { ...op, earlier: JSON.stringify((JSON.parse(op.earlier) as Item[]).map(change)) }
                    : op,
                ),
      }),
  }) as unknown as DurableObjectNamespace;

/** A Worker with stored responses on one fake OpenAI Responses upstream, its first turn sent. */
async function firstTurn(input: Item[] = ID_LESS, RESPONSES = responses) {
  const upstream: FakeUpstream = scripted("openai-responses", { text: "Nuts: 2 cents." });
  const openai = openAI7Client(upstream, { ...env, RESPONSES });
  // openai 7 types some of these items' `id` as required (OpenAI lists them with one): cast.
  const stored = await openai.responses.create({
    model: "openai-responses/gpt-5.6",
    input: input as unknown as ResponseInputItem[],
  });
  const sent = () => (upstream.requests.at(-1)!.body as { input: Item[] }).input;
  return { upstream, openai, stored, first: sent(), sent };
}

/** The items of `input` whose `id` is one the Worker made (an input item's it named, or an output item's). */
const workerIds = (input: Item[]): unknown[] =>
  input.flatMap((item) => (typeof item["id"] === "string" && storedIdOfItem(item["id"]) ? [item["id"]] : []));

describe("id-less input items stored, then sent back to OpenAI", () => {
  it("previous_response_id: OpenAI gets the items as the client sent them first, without the Worker's ids", async () => {
    const { openai, stored, first, sent } = await firstTurn();
    expect(workerIds(first)).toEqual([]);
    const answer = await openai.responses.create({
      model: "openai-responses/gpt-5.6",
      previous_response_id: stored.id,
      input: "And washers?",
    });
    expect(answer.status).toBe("completed");
    const second = sent();
    expect(workerIds(second)).toEqual([]);
    // What the first turn sent, then its answer and the new question: nothing the Worker added.
    expect(second.slice(0, first.length)).toEqual(first);
    expect(second.slice(first.length).map((item) => item["role"])).toEqual(["assistant", "user"]);
    expect(second.find((item) => item["type"] === "program")).not.toHaveProperty("status");
  });

  it("a record stored before (a program with the `status` the Worker gave it) goes back without it", async () => {
    const before = storedAs((item) => (item["type"] === "program" ? { ...item, status: "completed" } : item));
    const { openai, stored, first, sent } = await firstTurn(ID_LESS, before);
    const listed = await openai.responses.inputItems.list(stored.id, { order: "asc", limit: 100 });
    expect(listed.data.find((item) => item.type === "program")).toHaveProperty("status", "completed");
    await openai.responses.create({ model: "openai-responses/gpt-5.6", previous_response_id: stored.id, input: "Hm?" });
    expect(sent().slice(0, first.length)).toEqual(first);
  });

  it("input_items still lists each with an id, and a program without status", async () => {
    const { openai, stored } = await firstTurn();
    const items = (await openai.responses.inputItems.list(stored.id, { order: "asc", limit: 100 })).data;
    expect(items).toHaveLength(ID_LESS.length);
    // Each the Worker's id, but the local shell's output, whose `id` names its call.
    items.forEach((item, i) => expect(item.id).toEqual(ID_LESS[i]!["id"] ?? expect.stringMatching(/i\d+$/)));
    expect(items.filter((item) => storedIdOfItem(String(item.id))?.input)).toHaveLength(ID_LESS.length - 1);
    expect(items.find((item) => item.type === "program")).not.toHaveProperty("status");
    expect(items.find((item) => item.type === "web_search_call")).toHaveProperty("status", "completed");
  });

  it("item_reference: the item named goes to OpenAI without the id that named it", async () => {
    const { openai, stored, upstream, sent } = await firstTurn();
    const listed = (await openai.responses.inputItems.list(stored.id, { order: "asc", limit: 100 })).data;
    const named = ["web_search_call", "program", "local_shell_call", "reasoning"].map(
      (type) => listed.find((item) => item.type === type)!.id!,
    );
    upstream.answer = scripted("openai-responses", { text: "Washers: 1 cent." }).answer;
    const input = [
      ...named.map((id) => ({ type: "item_reference" as const, id })),
      { type: "local_shell_call_output" as const, id: "call_3", output: "bolts.txt" },
      { role: "user" as const, content: "And washers?" },
    ];
    const answer = await openai.responses.create({ model: "openai-responses/gpt-5.6", input });
    expect(answer.status).toBe("completed");
    const second = sent();
    expect(workerIds(second)).toEqual([]);
    expect(second.map((item) => item["type"] ?? item["role"])).toEqual([
      "web_search_call",
      "program",
      "local_shell_call",
      "local_shell_call_output",
      "user",
    ]);
    expect(second[1]).toEqual(ID_LESS[6]);
  });

  it("a local shell's call the Worker's output named goes back with that id, which OpenAI's input requires", async () => {
    const upstream = scripted("openai-responses", {
      calls: [{ name: "local_shell", arguments: { command: ["ls"] } }],
    });
    const openai = openAI7Client(upstream, env);
    const model = "openai-responses/gpt-5.6";
    const called = await openai.responses.create({ model, input: "List files.", tools: [{ type: "local_shell" }] });
    const call = called.output.find((item) => item.type === "local_shell_call")!;
    expect(storedIdOfItem(String(call.id))?.input).toBe(false);
    upstream.answer = scripted("openai-responses", { text: "bolts.txt" }).answer;
    const output = { type: "local_shell_call_output" as const, id: call.call_id, output: "bolts.txt" };
    // By previous_response_id, and as a client that keeps the conversation itself sends it back.
    await openai.responses.create({ model, previous_response_id: called.id, input: [output] });
    await openai.responses.create({ model, input: [{ role: "user", content: "List files." }, call, output] });
    for (const request of upstream.requests.slice(1)) {
      const input = (request.body as { input: Item[] }).input;
      // openai 7's `LocalShellCall` input has a required `id`: the `lsh_` one the output gave, the type's prefix.
      expect(input.find((item) => item["type"] === "local_shell_call")).toMatchObject({
        id: call.id,
        call_id: call.call_id,
      });
      expect(workerIds(input)).toEqual([call.id]);
    }
  });

  it("another provider is sent the same conversation as before: the calls and their outputs, no OpenAI items", async () => {
    const input = ID_LESS.filter((item) => item["type"] !== "mcp_list_tools");
    const { openai, stored, upstream } = await firstTurn(input);
    upstream.answer = scripted("anthropic", { text: "Washers: 1 cent." }).answer;
    const answer = await openai.responses.create({
      model: "anthropic/claude-x",
      previous_response_id: stored.id,
      input: "And washers?",
    });
    expect([answer.status, answer.output_text]).toEqual(["completed", "Washers: 1 cent."]);
    const text = JSON.stringify(upstream.requests.at(-1)!.body);
    for (const id of ["call_1", "call_2", "call_3", "call_4", "call_5"]) expect(text).toContain(id);
    expect(text).not.toMatch(/web_search_call|gAAAA|prog_1|item_/);
  });
});
