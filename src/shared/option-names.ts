/**
 * Throws a `TypeError` for an own key of `options` that `known` does not have, naming it and
 * every key of `known`. An option name a function does not know is the caller's mistake, a typo
 * that TypeScript would have refused (`maxArgumentLength`) but JavaScript passes: said at the
 * call, as esbuild says an unknown option, rather than ignored with the default left in force.
 */
export function checkOptionNames(options: object, known: object): void {
  for (const key of Object.keys(options))
    if (!Object.hasOwn(known, key))
      throw new TypeError(`Unknown option \`${key}\`; the options are: ${Object.keys(known).join(", ")}.`);
}

/**
 * Throws a `TypeError` for any own key of `options`: what a stage that takes no options checks
 * (`new CohereDeltaStream({ maxToolCalls: 4 })` would leave the limit unset, said at the call).
 */
export function checkNoOptions(options: object | undefined): void {
  for (const key of Object.keys(options ?? {})) throw new TypeError(`Unknown option \`${key}\`; it takes no options.`);
}

/**
 * The own keys of `options` that `known` has, with their values: a stage's own options out of a
 * chain's, which holds every stage's (a key given as `undefined` is kept, as given).
 *
 * @example
 * ```ts
 * new ToolCallAccumulatorCore(emit, pickOptions<ToolCallAccumulatorOptions>(options, ACCUMULATOR_CORE_OPTIONS));
 * ```
 */
export function pickOptions<T>(options: object, known: Record<keyof T, 0>): T {
  const picked: Record<string, unknown> = {};
  for (const key in known) if (Object.hasOwn(options, key)) picked[key] = (options as Record<string, unknown>)[key];
  return picked as T;
}
