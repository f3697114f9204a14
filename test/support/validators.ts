// Hand-written Standard Schema v1 validators (no library), synchronous, asynchronous, and
// asynchronous settled by hand, so that tests control exactly when each validation settles.
import type { StandardSchemaV1 } from "../../src/index.ts";
import { deferred, type Deferred } from "./tool-fakes.ts";

/** What the weather validator accepts. */
export interface WeatherInput {
  city: string;
  days?: number | string;
  unit?: "c" | "f";
  stops?: { name: string }[];
}

/** What it outputs: `days` coerced to a number, `unit` defaulted to "c". */
export interface Weather {
  city: string;
  days?: number;
  unit: "c" | "f";
  stops?: { name: string }[];
}

/**
 * Checks a weather request: `city` a non-empty string, `days` a number or a numeric string
 * (coerced), `unit` "c" or "f" (default "c"), `stops` a list of `{ name }`. Issue paths mix bare
 * keys and `{ key }` segments, as libraries do.
 */
export function checkWeather(value: unknown): StandardSchemaV1.Result<Weather> {
  const issues: StandardSchemaV1.Issue[] = [];
  if (typeof value !== "object" || value === null || Array.isArray(value))
    return { issues: [{ message: "Expected an object" }] };
  const input = value as Record<string, unknown>;
  if (typeof input["city"] !== "string" || input["city"] === "")
    issues.push({ message: "Expected a city name", path: ["city"] });
  const days = typeof input["days"] === "string" ? Number(input["days"]) : input["days"];
  if (days !== undefined && (typeof days !== "number" || !Number.isInteger(days)))
    issues.push({ message: "Expected a whole number of days", path: [{ key: "days" }] });
  const unit = input["unit"] ?? "c";
  if (unit !== "c" && unit !== "f") issues.push({ message: "Expected c or f", path: ["unit"] });
  const stops = input["stops"];
  if (stops !== undefined) {
    if (!Array.isArray(stops)) issues.push({ message: "Expected a list", path: ["stops"] });
    else
      stops.forEach((stop, i) => {
        if (typeof (stop as { name?: unknown })?.name !== "string")
          issues.push({ message: "Expected a name", path: [{ key: "stops" }, i, { key: "name" }] });
      });
  }
  if (issues.length > 0) return { issues };
  const output: Weather = { city: input["city"] as string, unit: unit as "c" | "f" };
  if (days !== undefined) output.days = days as number;
  if (stops !== undefined) output.stops = stops as { name: string }[];
  return { value: output };
}

/** The weather validator, answering at once. */
export function syncWeather(): StandardSchemaV1<WeatherInput, Weather> {
  return { "~standard": { version: 1, vendor: "test", validate: checkWeather } };
}

/** The weather validator, answering a turn later (a promise). */
export function asyncWeather(): StandardSchemaV1<WeatherInput, Weather> {
  return {
    "~standard": { version: 1, vendor: "test", validate: (value) => Promise.resolve().then(() => checkWeather(value)) },
  };
}

/** A validation the test settles by hand. */
export interface PendingValidation {
  value: unknown;
  /** Settles it with the weather validator's verdict. */
  settle(): void;
  result: Deferred<StandardSchemaV1.Result<Weather>>;
}

/** The weather validator, answering only when the test settles each validation. */
export interface ManualValidator extends StandardSchemaV1<WeatherInput, Weather> {
  readonly pending: PendingValidation[];
}

/** Makes a {@link ManualValidator}. */
export function manualWeather(): ManualValidator {
  const pending: PendingValidation[] = [];
  return {
    pending,
    "~standard": {
      version: 1,
      vendor: "test",
      validate(value) {
        const result = deferred<StandardSchemaV1.Result<Weather>>();
        pending.push({ value, result, settle: () => result.resolve(checkWeather(value)) });
        return result.promise;
      },
    },
  };
}
