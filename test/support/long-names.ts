// Member names past 16,383 characters, which V8 hashes by their length alone (src/shared/long-member-name.ts).

/** A member name of 16,400 characters, `end` its last one: two of them are alike but for their ends. */
export const name = (end: string): string => `${"k".repeat(16_399)}${end}`;

/** The texts holding `name("a")` that `JSON.parse` was given while `run` ran. */
export async function parsedLongNames(run: () => unknown): Promise<number> {
  const parse = JSON.parse;
  let seen = 0;
  JSON.parse = (text: string, reviver?: Parameters<typeof parse>[1]) => {
    if (typeof text === "string" && text.includes(name("a"))) seen++;
    return parse(text, reviver);
  };
  try {
    await run();
  } finally {
    JSON.parse = parse;
  }
  return seen;
}
