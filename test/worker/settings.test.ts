// The settings read from vars: the write windows (defaults, bounds, a clear error for a bad value), ANTHROPIC_BETAS, ANTHROPIC_SERVER_TOOLS, OPENAI_SERVER_TOOLS.
import { describe, expect, it } from "vitest";
import { DEFAULT_SETTINGS, readSettings, SettingsError } from "../../worker/env.ts";
import { testEnv } from "./support.ts";

describe("the write windows' settings", () => {
  it("unset: 25 ms for a plain answer, 100 ms for a resumable response's log", () => {
    const { WRITE_WINDOW_MS: _plain, RESUME_WRITE_WINDOW_MS: _log, ...unset } = testEnv({});
    const settings = readSettings(unset);
    expect(settings.writeWindowMs).toBe(25);
    expect(settings.resumeWriteWindowMs).toBe(100);
    expect(DEFAULT_SETTINGS.resumeWriteWindowMs).toBeGreaterThan(DEFAULT_SETTINGS.writeWindowMs);
  });

  it("each is read on its own, from 0 to 1000", () => {
    const settings = readSettings(testEnv({ WRITE_WINDOW_MS: "0", RESUME_WRITE_WINDOW_MS: "1000" }));
    expect(settings.writeWindowMs).toBe(0);
    expect(settings.resumeWriteWindowMs).toBe(1000);
  });

  it("a value out of bounds, or not an integer, is a SettingsError naming the variable", () => {
    for (const value of ["1001", "-1", "25.5", "soon"]) {
      expect(() => readSettings(testEnv({ RESUME_WRITE_WINDOW_MS: value }))).toThrow(SettingsError);
      expect(() => readSettings(testEnv({ RESUME_WRITE_WINDOW_MS: value }))).toThrow(/RESUME_WRITE_WINDOW_MS/);
    }
  });
});

describe("ANTHROPIC_BETAS", () => {
  it("unset or blank: no beta; else its comma-separated values, trimmed, blanks left out", () => {
    expect(readSettings(testEnv({})).anthropicBetas.size).toBe(0);
    expect(readSettings(testEnv({ ANTHROPIC_BETAS: " , " })).anthropicBetas.size).toBe(0);
    expect([...readSettings(testEnv({ ANTHROPIC_BETAS: " a-2025-01-01 ,,b-2025-02-02 " })).anthropicBetas]).toEqual([
      "a-2025-01-01",
      "b-2025-02-02",
    ]);
  });
});

describe("ANTHROPIC_SERVER_TOOLS and OPENAI_SERVER_TOOLS", () => {
  const vars = [
    ["ANTHROPIC_SERVER_TOOLS", "anthropicServerTools", "code_execution"],
    ["OPENAI_SERVER_TOOLS", "openaiServerTools", "mcp"],
  ] as const;
  it.each(vars)(
    "%s unset or blank: no server tool is forwarded; else its comma-separated kinds, trimmed",
    (name, field, other) => {
      expect(readSettings(testEnv({}))[field].size).toBe(0);
      expect(readSettings(testEnv({ [name]: " , " }))[field].size).toBe(0);
      expect([...readSettings(testEnv({ [name]: ` web_search ,${other}` }))[field]]).toEqual(["web_search", other]);
    },
  );
});
