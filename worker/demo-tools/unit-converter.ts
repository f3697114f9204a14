import { ToolHandlerError, type JsonValue, type RunnableTool } from "../../src/index.ts";

/** The kinds of unit. */
export type Category = "length" | "mass" | "volume" | "speed" | "time" | "temperature";

/**
 * Each unit: its category and how many of the category's base unit one of it is. Temperatures
 * are not proportional to each other: they convert through kelvin, and their factor is unused.
 */
const UNITS: Readonly<Record<string, { category: Category; factor: number }>> = {
  mm: { category: "length", factor: 0.001 },
  cm: { category: "length", factor: 0.01 },
  m: { category: "length", factor: 1 },
  km: { category: "length", factor: 1000 },
  in: { category: "length", factor: 0.0254 },
  ft: { category: "length", factor: 0.3048 },
  yd: { category: "length", factor: 0.9144 },
  mi: { category: "length", factor: 1609.344 },
  nmi: { category: "length", factor: 1852 },
  mg: { category: "mass", factor: 1e-6 },
  g: { category: "mass", factor: 0.001 },
  kg: { category: "mass", factor: 1 },
  t: { category: "mass", factor: 1000 },
  oz: { category: "mass", factor: 0.028349523125 },
  lb: { category: "mass", factor: 0.45359237 },
  st: { category: "mass", factor: 6.35029318 },
  ml: { category: "volume", factor: 0.001 },
  l: { category: "volume", factor: 1 },
  m3: { category: "volume", factor: 1000 },
  tsp: { category: "volume", factor: 0.00492892159375 },
  tbsp: { category: "volume", factor: 0.01478676478125 },
  fl_oz: { category: "volume", factor: 0.0295735295625 },
  cup: { category: "volume", factor: 0.2365882365 },
  pt: { category: "volume", factor: 0.473176473 },
  qt: { category: "volume", factor: 0.946352946 },
  gal: { category: "volume", factor: 3.785411784 },
  "m/s": { category: "speed", factor: 1 },
  "km/h": { category: "speed", factor: 1 / 3.6 },
  mph: { category: "speed", factor: 0.44704 },
  kn: { category: "speed", factor: 1852 / 3600 },
  s: { category: "time", factor: 1 },
  min: { category: "time", factor: 60 },
  h: { category: "time", factor: 3600 },
  d: { category: "time", factor: 86_400 },
  wk: { category: "time", factor: 604_800 },
  C: { category: "temperature", factor: 1 },
  F: { category: "temperature", factor: 1 },
  K: { category: "temperature", factor: 1 },
};

/** The unit symbols, in the order above (US customary volumes). */
export const UNIT_SYMBOLS: readonly string[] = Object.keys(UNITS);
const SIGNIFICANT_DIGITS = 12;
/** Largest magnitude accepted, so that no conversion overflows. */
const MAX_MAGNITUDE = 1e200;

/**
 * `convert_units`: converts a value between units of length, mass, volume (US customary), speed,
 * time and temperature (C, F, K).
 *
 * @example
 * ```ts
 * unitConverter.run({ value: 100, from: "F", to: "C" }, context); // { value: 37.7777777778, unit: "C", category: "temperature" }
 * ```
 */
export const unitConverter: RunnableTool = {
  description: "Convert a value between units of length, mass, volume (US customary), speed, time or temperature.",
  parameters: {
    type: "object",
    properties: {
      value: { type: "number", description: "The amount to convert." },
      from: { type: "string", enum: [...UNIT_SYMBOLS], description: "The unit of `value`." },
      to: { type: "string", enum: [...UNIT_SYMBOLS], description: "The unit to convert to, of the same kind." },
    },
    required: ["value", "from", "to"],
    additionalProperties: false,
  },
  run(args: JsonValue): JsonValue {
    const { value, from, to } = isObject(args) ? args : {};
    return convertUnits(value, from, to);
  },
};

/**
 * Converts `value` from one unit to another of the same kind (12 significant digits), or throws a
 * `ToolHandlerError` that says what is expected. The conversion of `convert_units` and `unit_table`.
 */
export function convertUnits(
  value: JsonValue | undefined,
  from: JsonValue | undefined,
  to: JsonValue | undefined,
): { value: number; unit: string; category: Category } {
  if (typeof value !== "number" || !Number.isFinite(value) || Math.abs(value) > MAX_MAGNITUDE) {
    throw new ToolHandlerError(`Pass \`value\` as a finite number no larger than ${MAX_MAGNITUDE} in magnitude.`);
  }
  const source = unit(from, "from");
  const target = unit(to, "to");
  if (source.category !== target.category) {
    throw new ToolHandlerError(
      `Cannot convert ${source.category} to ${target.category}; \`from\` and \`to\` must be units of the same kind.`,
    );
  }
  const converted =
    source.category === "temperature"
      ? fromKelvin(toKelvin(value, from as string), to as string)
      : (value * source.factor) / target.factor;
  return { value: Number(converted.toPrecision(SIGNIFICANT_DIGITS)), unit: to as string, category: source.category };
}

function unit(symbol: JsonValue | undefined, field: "from" | "to"): { category: Category; factor: number } {
  const found = typeof symbol === "string" && Object.hasOwn(UNITS, symbol) ? UNITS[symbol] : undefined;
  if (!found) throw new ToolHandlerError(`\`${field}\` is not a known unit. Use one of: ${UNIT_SYMBOLS.join(", ")}.`);
  return found;
}

function toKelvin(value: number, symbol: string): number {
  if (symbol === "C") return value + 273.15;
  if (symbol === "F") return ((value - 32) * 5) / 9 + 273.15;
  return value;
}

function fromKelvin(kelvin: number, symbol: string): number {
  if (symbol === "C") return kelvin - 273.15;
  if (symbol === "F") return ((kelvin - 273.15) * 9) / 5 + 32;
  return kelvin;
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
