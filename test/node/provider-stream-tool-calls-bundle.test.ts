// A provider subpath's streamToolCalls bundles that provider alone (issue 24): esbuild bundles
// `import { streamToolCalls } from "<entry>"` from the sources and the files that end up in the
// output are listed. The main entry's streamToolCalls, which takes any provider by name, holds them all.
import { resolve } from "node:path";
import * as esbuild from "esbuild";
import { describe, expect, it } from "vitest";

const PROVIDERS = {
  openai: "openai-chat",
  "openai-responses": "openai-responses",
  anthropic: "anthropic",
  gemini: "gemini",
  bedrock: "bedrock",
  cohere: "cohere",
  ollama: "ollama",
  "gemini-interactions": "gemini-interactions",
} as const;
/**
 * What a subpath's streamToolCalls may hold of another provider: nothing. (Bedrock reads Claude's
 * InvokeModel events with the Anthropic decoder only when the app passes it, `invokeModel`.)
 */
const SHARES: Record<string, string[]> = {};

/** The provider folders whose decoder or protocol is in the bundle of `streamToolCalls` from `entry`. */
async function decodersIn(entry: string): Promise<string[]> {
  const result = await esbuild.build({
    stdin: {
      contents: `import { streamToolCalls } from "./${entry}.ts"; globalThis.streamToolCalls = streamToolCalls;`,
      resolveDir: resolve("src"),
      loader: "ts",
    },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    write: false,
    metafile: true,
  });
  const [output] = Object.values(result.metafile.outputs);
  const files = Object.entries(output!.inputs)
    .filter(([, input]) => input.bytesInOutput > 0)
    .map(([file]) => file);
  const folders = files.map((file) => /providers\/([^/]+)\/[^/]+-(?:delta-stream|protocol)\.ts$/.exec(file)?.[1]);
  return [...new Set(folders.filter((folder) => folder !== undefined))].sort();
}

describe("streamToolCalls per provider", () => {
  for (const [subpath, folder] of Object.entries(PROVIDERS)) {
    it(`tool-call-stream/${subpath}: its own decoder only`, async () => {
      expect(await decodersIn(subpath)).toEqual([folder, ...(SHARES[subpath] ?? [])].sort());
    });
  }

  it("the main entry's streamToolCalls holds every provider's", async () => {
    expect(await decodersIn("index")).toEqual(Object.values(PROVIDERS).sort());
  });
});
