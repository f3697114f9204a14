import { ToolHandlerError, type JsonValue, type RunnableTool, type ToolHandlerContext } from "../../src/index.ts";
import { sleep, type Timers } from "../runtime.ts";
import { convertUnits, UNIT_SYMBOLS } from "./unit-converter.ts";

/** Most rows of one table. */
export const MAX_ROWS = 12;

/** Options of {@link createUnitTableTool}. */
export interface UnitTableOptions {
  /** The timers that pace the rows (tests pass a manual clock); without them, rows come at once. */
  timers?: Timers;
  /**
   * Time between two rows, so that a page shows the table filling in.
   * @defaultValue 150 with `timers`, else 0
   */
  rowDelayMs?: number;
}

/**
 * `unit_table`: a conversion table between two units of the same kind, one row per value (`values`,
 * or 1 to 10 when absent), streamed: the handler is an async generator, so each row it adds is a
 * preliminary `tool-result` the client sees grow, and the whole table is the final one the model
 * reads. It stops between rows when its signal is aborted (a timeout, `cancelCall`, the client
 * leaving).
 *
 * @example
 * ```ts
 * for await (const table of createUnitTableTool().run({ from: "km", to: "mi", values: [1, 5] }, context)) console.log(table);
 * // { from: "km", to: "mi", rows: [[1, 0.621371192237]] }, then both rows
 * ```
 */
export function createUnitTableTool(options: UnitTableOptions = {}): RunnableTool {
  const delay = options.timers ? (options.rowDelayMs ?? 150) : 0;
  return {
    description: `A conversion table between two units of the same kind (length, mass, volume, speed, time, temperature), one row per value (at most ${MAX_ROWS}); the rows fill in one by one.`,
    parameters: {
      type: "object",
      properties: {
        from: { type: "string", enum: [...UNIT_SYMBOLS], description: "The unit of the values." },
        to: { type: "string", enum: [...UNIT_SYMBOLS], description: "The unit to convert them to, of the same kind." },
        values: {
          type: "array",
          items: { type: "number" },
          maxItems: MAX_ROWS,
          description: "The values to convert; 1 to 10 when absent.",
        },
      },
      required: ["from", "to"],
      additionalProperties: false,
    },
    async *run(args: JsonValue, context: ToolHandlerContext): AsyncGenerator<JsonValue, JsonValue> {
      const { from, to, values } = isObject(args) ? args : {};
      const list = values === undefined ? [1, 2, 3, 4, 5, 6, 7, 8, 9, 10] : values;
      if (!Array.isArray(list) || list.length === 0 || list.length > MAX_ROWS)
        throw new ToolHandlerError(`Pass \`values\` as a list of 1 to ${MAX_ROWS} numbers, or leave it out.`);
      // Checked whole before the first row, so that a bad value fails at once, not half-way.
      const rows = list.map((value) => [value, convertUnits(value, from, to).value] as [JsonValue, number]);
      const table = { from: from as string, to: to as string, rows: [] as [JsonValue, number][] };
      for (const row of rows) {
        if (table.rows.length > 0) await sleep(options.timers ?? NO_TIMERS, delay, context.signal);
        table.rows.push(row);
        yield { ...table, rows: [...table.rows] };
      }
      return table;
    },
  };
}

/** Timers for a tool made without any: only a zero delay is asked of them, which never touches a clock. */
const NO_TIMERS: Timers = {
  setTimeout: () => {
    throw new Error("unit_table has no timers");
  },
  clearTimeout: () => {},
  now: () => 0,
};

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
