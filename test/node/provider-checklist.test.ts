// A new provider is one folder plus one registry line in the library, and the places CONTRIBUTING's
// "A provider protocol" and "A Worker upstream" list: this test holds every Provider to those
// lists, so a provider that misses one of them fails here (the registry, the Worker's upstream
// table and the scripted model's writers are mapped types, so a missing kit, upstream line or
// writer is a compile error first).
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { PROVIDERS, type Provider } from "../../src/index.ts";
import { allFixtures, recordingsAvailable } from "../support/fixtures.ts";
import { protocolOf } from "../support/fixture-provider.ts";

/** The folder of a provider under src/providers/: its name, but Chat Completions' is `openai-chat`. */
const folderOf = (provider: Provider): string => (provider === "openai" ? "openai-chat" : provider);
/** The pieces of a provider's folder, each a file named after the folder. */
const PIECES = ["delta-stream", "finish-reasons", "messages", "tools", "request", "protocol", "kit"];

const read = (path: string): string => readFileSync(path, "utf8");
const packageJson = JSON.parse(read("package.json")) as { exports: Record<string, unknown>; scripts: { docs: string } };
const denoJson = JSON.parse(read("deno.json")) as { exports: Record<string, string> };
const registry = read("src/providers/registry.ts");
const sizeScript = read("scripts/size.mjs");
const sizeProviders = sizeScript.slice(
  sizeScript.indexOf("const PROVIDERS = {"),
  sizeScript.indexOf("const MULTI_PROVIDER"),
);

describe("every provider is in every place CONTRIBUTING lists", () => {
  for (const provider of PROVIDERS) {
    const folder = folderOf(provider);
    it(`${provider}: its folder, its registry line, its entry module and subpath, its size lists, its tests and recordings`, () => {
      const missing = [
        ...PIECES.map((piece) => `src/providers/${folder}/${folder}-${piece}.ts`).filter((path) => !existsSync(path)),
        ...(registry.includes(`"./${folder}/${folder}-kit.ts"`) ? [] : ["its kit in src/providers/registry.ts"]),
        ...(existsSync(`src/${provider}.ts`) ? [] : [`src/${provider}.ts`]),
        ...(`./${provider}` in packageJson.exports ? [] : ["package.json exports"]),
        ...(denoJson.exports[`./${provider}`] === `./src/${provider}.ts` ? [] : ["deno.json exports"]),
        ...(packageJson.scripts.docs.includes(` src/${provider}.ts `) ? [] : ["the docs script"]),
        ...(new RegExp(`^\\s+"?${provider}"?: \\{`, "m").test(sizeProviders) ? [] : ["scripts/size.mjs PROVIDERS"]),
        ...(existsSync(`test/providers/${folder}`) ? [] : [`test/providers/${folder}/`]),
        ...(!recordingsAvailable || allFixtures.some((fixture) => protocolOf(fixture) === provider)
          ? []
          : ["a recording read as it"]),
      ];
      expect(missing).toEqual([]);
    });
  }

  const page = read("worker/page/html.ts");
  for (const provider of PROVIDERS) {
    const folder = folderOf(provider);
    it(`${provider}: its Worker upstream, its scripted-model writer and its entry on the page`, () => {
      const missing = [
        ...[`worker/upstream/providers/${folder}.ts`, `worker/upstream/replay/scripted/writers/${folder}.ts`].filter(
          (path) => !existsSync(path),
        ),
        ...(page.includes(`{ name: "${provider}",`) ? [] : ["PAGE_PROVIDERS (worker/page/html.ts)"]),
      ];
      expect(missing).toEqual([]);
    });
  }

  it("the list above can fail: a name that is not a provider misses every place", () => {
    const folder = "acme";
    expect(existsSync(`src/providers/${folder}/${folder}-kit.ts`)).toBe(false);
    expect(`./${folder}` in packageJson.exports).toBe(false);
    expect(new RegExp(`^\\s+"?${folder}"?: \\{`, "m").test(sizeProviders)).toBe(false);
  });
});
