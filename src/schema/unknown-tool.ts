// A module of its own, with no imports: the accumulator reads it without bundling the schema checks.

/**
 * The one issue of a call to a tool the request did not declare, which the accumulator also makes
 * the error's message (the arguments were not the problem).
 *
 * @example
 * ```ts
 * notOneOfTheTools("weather"); // "weather is not one of the request's tools"
 * ```
 */
export function notOneOfTheTools(name: string): string {
  return `${name} is not one of the request's tools`;
}
