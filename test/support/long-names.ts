// Member names past 16,383 characters, which V8 hashes by their length alone (src/shared/long-member-name.ts).

/** A member name of 16,400 characters, `end` its last one: two of them are alike but for their ends. */
export const name = (end: string): string => `${"k".repeat(16_399)}${end}`;

/** The texts that `JSON.parse` was given while `run` ran in which `name("a")` is a member name. */
export async function parsedLongNames(run: () => unknown): Promise<number> {
  const parse = JSON.parse;
  // As a member name (a colon after its closing quote): a long string value is never interned.
  const asName = new RegExp(`${name("a")}"\\s*:`);
  let seen = 0;
  JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === "string" && asName.test(text)) seen++;
    return parse(text, reviver);
  };
  try {
    await run();
  } finally {
    JSON.parse = parse;
  }
  return seen;
}
