import { ToolHandlerError, type JsonValue, type RunnableTool } from "../../src/index.ts";

/** What an IANA zone name looks like ("Europe/Paris", "America/Argentina/Buenos_Aires", "UTC", "Etc/GMT+5"). */
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+){0,3}$/;
const MAX_ZONE_LENGTH = 64;

/** Options of {@link createCurrentTimeTool}. */
export interface CurrentTimeOptions {
  /** The clock, in milliseconds since the epoch (tests pass a fixed one). @defaultValue `Date.now` */
  now?: () => number;
}

/**
 * `current_time`: the current date and time in an IANA time zone, computed with `Intl` from the
 * injected clock. An unknown zone is an error that says what a zone name looks like.
 *
 * @example
 * ```ts
 * createCurrentTimeTool({ now: () => Date.UTC(2026, 10, 22, 23, 30) }).run({ time_zone: "Asia/Tokyo" }, context);
 * // { time_zone: "Asia/Tokyo", date: "2026-11-23", time: "08:30:00", weekday: "Monday", utc_offset: "+09:00", utc: "2026-11-22T23:30:00.000Z" }
 * ```
 */
export function createCurrentTimeTool(options: CurrentTimeOptions = {}): RunnableTool {
  const now = options.now ?? Date.now;
  return {
    description: "The current date, time, weekday and UTC offset in a time zone.",
    parameters: {
      type: "object",
      properties: {
        time_zone: {
          type: "string",
          description: 'An IANA time zone name such as "Europe/Paris", "America/New_York" or "UTC".',
        },
      },
      required: ["time_zone"],
      additionalProperties: false,
    },
    run(args: JsonValue): JsonValue {
      const zone = isObject(args) ? args["time_zone"] : undefined;
      if (typeof zone !== "string" || zone.length > MAX_ZONE_LENGTH || !ZONE_NAME.test(zone)) throw unknownZone();
      let parts: Intl.DateTimeFormatPart[];
      const instant = new Date(now());
      try {
        parts = new Intl.DateTimeFormat("en-US", {
          timeZone: zone,
          hourCycle: "h23",
          year: "numeric",
          month: "2-digit",
          day: "2-digit",
          hour: "2-digit",
          minute: "2-digit",
          second: "2-digit",
          weekday: "long",
          timeZoneName: "longOffset",
        }).formatToParts(instant);
      } catch {
        throw unknownZone(); // Intl throws a RangeError for a zone it does not know
      }
      const part = (type: Intl.DateTimeFormatPartTypes): string => parts.find((p) => p.type === type)?.value ?? "";
      return {
        time_zone: new Intl.DateTimeFormat("en-US", { timeZone: zone }).resolvedOptions().timeZone,
        date: `${part("year")}-${part("month")}-${part("day")}`,
        time: `${part("hour")}:${part("minute")}:${part("second")}`,
        weekday: part("weekday"),
        utc_offset: offset(part("timeZoneName")),
        utc: instant.toISOString(),
      };
    },
  };
}

/** "GMT+05:30" -> "+05:30"; plain "GMT" (UTC itself) -> "+00:00". */
function offset(name: string): string {
  const match = /^GMT([+-]\d{2}:\d{2})$/.exec(name);
  return match?.[1] ?? "+00:00";
}

function unknownZone(): ToolHandlerError {
  return new ToolHandlerError(
    'That is not a known IANA time zone. Pass a name such as "Europe/Paris", "America/New_York", "Asia/Tokyo" or "UTC".',
  );
}

function isObject(value: JsonValue): value is { [key: string]: JsonValue } {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
