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

/** The demo tools, by the name a request enables them with. */
export function demoTools(options: CurrentTimeOptions = {}): Readonly<Record<string, RunnableTool>> {
  return {
    current_time: createCurrentTimeTool(options),
    calculate: calculator,
    convert_units: unitConverter,
  };
}

/** The names of the demo tools. */
export const DEMO_TOOL_NAMES: readonly string[] = Object.keys(demoTools());
