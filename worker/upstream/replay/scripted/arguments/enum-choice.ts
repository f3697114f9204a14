/**
 * Which value of an enum the scripted model writes for a property from the prompt: one it names
 * (a language by any of its names for an enum of codes: "into German" gives `de` or `DE`), at the
 * end of a move the property's name asks for ("from kg to lb", "to USD from EUR"), not given to
 * another property of the call yet.
 *
 * @module
 */
import type { JsonValue } from "../../../../../src/index.ts";
import { byEnd, type End, type Ends, keyEnd, languageEnum, languageOptions } from "./directions.ts";
import { hintOf, namedOptions } from "./leaf-values.ts";
import { isStopWord, type PromptValues } from "./prompt-values.ts";

/**
 * The option of `options` the prompt gives the property `key`, marked in `used` (as `e:` and its
 * JSON), or `undefined` when the prompt names none (the caller then takes the default or the
 * first). When the prompt names options only at the other end of a move, the first option it
 * does not name there.
 */
export function pickOption(
  options: readonly JsonValue[],
  key: string | undefined,
  values: PromptValues,
  ends: Ends,
  used: Set<string>,
): JsonValue | undefined {
  const ofLanguages = languageEnum(options);
  const languages = ofLanguages || hintOf(key) === "lang" ? languageOptions(options, values.languages) : [];
  // Codes that are words too ("it", "no") are no language the prompt names.
  const named =
    languages.length > 0
      ? languages.map(({ option }) => option)
      : namedOptions(options, values).filter(
          (option) => !(ofLanguages && typeof option === "string" && isStopWord(option)),
        );
  const endOf = (option: JsonValue): End | undefined => {
    const language = languages.find((l) => l.option === option)?.language;
    if (language !== undefined) return ends.ofLanguage(language);
    return typeof option === "string" || typeof option === "number" ? ends.of(String(option)) : undefined;
  };
  const { near, far } = byEnd(named, endOf, keyEnd(key));
  const picked =
    near.find((option) => !used.has(`e:${JSON.stringify(option)}`)) ??
    near[0] ??
    (far.length > 0 ? options.find((option) => !far.includes(option)) : undefined) ??
    far[0];
  if (picked !== undefined) used.add(`e:${JSON.stringify(picked)}`);
  return picked;
}
