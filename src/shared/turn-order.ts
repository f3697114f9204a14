/**
 * Where a turn's pieces came, in the order the stream gave them: what the `finish` event's `order`
 * lists, and the next turn follows.
 *
 * @module
 */

/**
 * One entry of a turn's `order` (a `finish` event's): a run of its text, one of its calls, or a run of
 * its reasoning parts, in the order the stream gave them.
 * - `text`: the next `length` UTF-16 code units of `text` (the text of one or more blocks with
 *   nothing else between them);
 * - `tool-call`: the call of this `index` (a `ToolCall`'s `index`), placed where its first fragment
 *   came; a call that ended invalid or withdrawn is in no list the turn sends back, and is skipped;
 * - `reasoning-parts`: the next `count` entries of `reasoningParts`.
 */
export type TurnOrderEntry =
  | {
      /** The kind of entry: a run of text. */
      type: "text";
      /** Its length in UTF-16 code units. */
      length: number;
    }
  | {
      /** The kind of entry: a call. */
      type: "tool-call";
      /** The call's index. */
      index: number;
    }
  | {
      /** The kind of entry: a run of reasoning parts. */
      type: "reasoning-parts";
      /** How many. */
      count: number;
    };
