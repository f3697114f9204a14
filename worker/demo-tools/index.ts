/**
 * The Worker's built-in demo tools for `POST /v1/run`: pure functions of their arguments (and a
 * clock), with no network and no secrets, so a model can be let loose on them at the edge.
 *
 * @module
 */
import type { RunnableTool } from "../../src/index.ts";
import { calculator } from "./calculator.ts";
import { createCurrentTimeTool, type CurrentTimeOptions } from "./current-time.ts";
import { unitConverter } from "./unit-converter.ts";
import { createUnitTableTool, type UnitTableOptions } from "./unit-table.ts";

/** Options of {@link demoTools}: the clock of `current_time`, the timers that pace `unit_table`'s rows. */
export interface DemoToolOptions extends CurrentTimeOptions, UnitTableOptions {}

/** The demo tools, by the name a request enables them with. */
export function demoTools(options: DemoToolOptions = {}): Readonly<Record<string, RunnableTool>> {
  return {
    current_time: createCurrentTimeTool(options),
    calculate: calculator,
    convert_units: unitConverter,
    unit_table: createUnitTableTool(options),
  };
}

/** The names of the demo tools. */
export const DEMO_TOOL_NAMES: readonly string[] = Object.keys(demoTools());
