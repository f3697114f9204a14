import type { FinishDelta, Usage } from "../../shared/deltas.ts";
import type { Emit } from "../provider-decoder.ts";
import { isRecord, nonEmptyString } from "../../shared/values.ts";
import { addInputApart, readUsage } from "../usage.ts";

/** The statuses of a hop still going (the SDK resumes `in_progress` after a drop); any other ends it (`extractHopContinuationState`, `RESUMABLE_STREAM_HOP_STATUSES` in dist/index.mjs). */
const GOING = /^(in_progress|queued|idle)$/;

/**
 * The hops of one Interactions answer. `@google/genai`'s `interactions.create({ stream: true })`
 * continues a decode the per-request limit cut by itself (`automatic_continuation`, its default)
 * and yields every hop's events in order: each hop's `interaction.created`, steps, and its
 * `interaction.completed`, intermediate ones with `status: "requires_continuation"` ("check
 * `status` on `interaction.completed` events rather than treating the first one as the end of
 * the output", its `AutomaticContinuationOption`). So such a finish is held: an event after it is
 * the next hop of the same answer, whose step indexes, counting from 0 again, go on past the
 * earlier hops' (each index is a call's), and whose usage adds to theirs, as the SDK sums a unary
 * call's hops. So is a hop the SDK opened from a checkpoint (an `interaction.status_update`'s
 * `continuation_token`) after the connection dropped: its `interaction.created` names another
 * interaction, with no `interaction.completed` before it. The held finish goes out at the body's
 * `[DONE]` (a hop's own bytes end so; the SDK yields none) or at the input's end.
 *
 * @example
 * ```ts
 * const hops = new InteractionsHops();
 * hops.index(0); // 0: the first hop's first step
 * hops.finish({ type: "finish", reason: "length", rawReason: "requires_continuation" }, emit); // held
 * hops.goOn(); // the next hop's `interaction.created`: the finish is dropped
 * hops.index(0); // 1: past the first hop's steps
 * ```
 */
export class InteractionsHops {
  /** Added to this hop's step indexes. */
  #offset = 0;
  /** The first index past every step seen. */
  #next = 0;
  /** The usage of the earlier hops. */
  #before: Usage | undefined;
  /** The latest usage, the hops' together. */
  #usage: Usage | undefined;
  /** A `requires_continuation` hop's finish, until the answer goes on or ends. */
  #held: FinishDelta | undefined;
  /** The interaction of this hop, as its `interaction.created` named it. */
  #interaction: string | undefined;
  /** The last event's, when it is a status update that ends the hop: what the answer ends with if nothing follows. */
  #terminal: Record<string, unknown> | undefined;

  /** The answer's index of a step of this hop. */
  index(index: number): number {
    const at = index + this.#offset;
    if (at >= this.#next) this.#next = at + 1;
    return at;
  }

  /**
   * An interaction's `Usage` of this hop (a completed hop's, or so far) as the answer's: the
   * earlier hops' added.
   */
  #sum(raw: unknown): Usage | undefined {
    const usage = readUsage(raw, ["total_input_tokens"], ["total_output_tokens"], ["total_tokens"], {
      cacheRead: ["total_cached_tokens"],
      reasoning: ["total_thought_tokens"],
      reasoningApart: true, // as Gemini's (src/providers/gemini/gemini-delta-stream.ts)
    });
    if (!usage) return undefined;
    // The built-in tools' prompt (`total_tool_use_tokens`), apart from the input's count and in the total, is input too.
    addInputApart(usage, "total_tool_use_tokens", "total_tokens");
    // Each count the earlier hops had (their usage's numbers: its `raw` is none) adds to this hop's.
    const before = this.#before as Record<string, unknown> | undefined;
    const counts = usage as unknown as Record<string, number | undefined>;
    for (const key in before) if (typeof before[key] === "number") counts[key] = before[key] + (counts[key] ?? 0);
    return (this.#usage = usage);
  }

  /** Reports an interaction's `Usage` (a completed hop's, or so far: a step delta's, a status update's) as the answer's. */
  report(raw: unknown, emit: Emit): void {
    const usage = this.#sum(raw);
    if (usage) emit({ type: "usage", usage });
  }

  /**
   * An `interaction.status_update`: its usage is the answer's so far; a terminal status (`completed`, ...) ends the
   * hop if no event follows (`unfinished`), as the SDK ends its stream there, `interaction.completed` or not.
   */
  statusUpdate(update: Record<string, unknown>, emit: Emit): void {
    this.report(update["usage"], emit);
    const status = update["status"];
    if (typeof status === "string" && !GOING.test(status)) this.#terminal = update;
  }

  /** The terminal status update the input ended on, if it did (taken once): the hop's completion to make of it. */
  unfinished(): Record<string, unknown> | undefined {
    const update = this.#terminal;
    this.#terminal = undefined;
    return update;
  }

  /** A hop completed: its finish and `done` go out, or, after `requires_continuation`, wait for the next event. */
  finish(finish: FinishDelta, emit: Emit): void {
    this.#held = finish;
    if (finish.rawReason !== "requires_continuation") this.release(emit);
  }

  /** An event came: a terminal status before it ended nothing; after a held finish, the next hop of the same answer. */
  goOn(): void {
    this.#terminal = undefined;
    if (!this.#held) return;
    this.#held = undefined;
    this.#advance();
  }

  /**
   * A hop's `interaction.created`. One of another interaction than this hop's, with no
   * `interaction.completed` between them, is the hop the SDK opened from a checkpoint's token
   * (an `interaction.status_update`'s `continuation_token`) after the connection dropped: the
   * next hop too. The same interaction's again (a stream resumed at its `last_event_id`) is not.
   * True when this is a hop after a drop, whose predecessor's open steps were cut.
   */
  created(interaction: unknown): boolean {
    const id = isRecord(interaction) ? nonEmptyString(interaction["id"]) : undefined;
    if (id === undefined) return false;
    const next = this.#interaction !== undefined && id !== this.#interaction;
    if (next) this.#advance();
    this.#interaction = id;
    return next;
  }

  /** The next hop: its steps' indexes go on past the earlier hops', its usage adds to theirs. */
  #advance(): void {
    this.#offset = this.#next;
    this.#before = this.#usage;
  }

  /** The answer ends here: a held finish goes out. */
  release(emit: Emit): void {
    const held = this.#held;
    if (!held) return;
    this.#held = undefined;
    emit(held);
    emit({ type: "done" });
  }
}
