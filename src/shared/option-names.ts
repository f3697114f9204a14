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
