// What the Worker makes once per isolate instead of once per request: the settings of one bindings
// object, the id of a pool object by its name; the platform's own timers (a number, not Node's
// `Timeout` object: wrangler.toml's `no_nodejs_global_timers`); and a stored response's rows
// written without a transaction of their own, so a write that throws part way leaves nothing read.
import { runInDurableObject } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { authenticatedSettings } from "../../worker/http/auth.ts";
import { Expiries } from "../../worker/resumable/expiries.ts";
import { namedObject } from "../../worker/resumable/response-id.ts";
import { storedResponseOp, writeKept } from "../../worker/resumable/stored-responses.ts";
import { newTestResponseId, objectOf, responses, testEnv } from "./support.ts";

describe("made once per isolate", () => {
  it("the settings of one bindings object are read once; another object's are its own", async () => {
    const request = () => new Request("https://w/", { headers: { authorization: "Bearer t" } });
    const env = testEnv({ CLIENT_TOKEN: "t", WRITE_WINDOW_MS: "7" });
    const settings = await authenticatedSettings(request(), env);
    expect(await authenticatedSettings(request(), env)).toBe(settings);
    const other = await authenticatedSettings(request(), testEnv({ CLIENT_TOKEN: "t", WRITE_WINDOW_MS: "9" }));
    expect(other).not.toBe(settings);
    expect([settings.writeWindowMs, other.writeWindowMs]).toEqual([7, 9]);
  });

  it("a pool object's id is made once per name; each call is still a stub of that object", () => {
    const named: string[] = [];
    const spy = new Proxy(responses, {
      get(target, key) {
        const member = Reflect.get(target, key, target) as unknown;
        if (key === "idFromName") return (name: string) => (named.push(name), target.idFromName(name));
        return typeof member === "function" ? member.bind(target) : member;
      },
    });
    const [a, b, c] = [namedObject(spy, "sjc-3"), namedObject(spy, "sjc-3"), namedObject(spy, "ams-1")];
    expect(named).toEqual(["sjc-3", "ams-1"]);
    expect(a).not.toBe(b);
    expect(a.id.equals(responses.idFromName("sjc-3"))).toBe(true);
    expect(b.id.equals(a.id)).toBe(true);
    expect(c.id.equals(responses.idFromName("ams-1"))).toBe(true);
  });

  it("the global timers are the platform's: a number for each timer", async () => {
    const handle: unknown = setTimeout(() => undefined, 60_000);
    clearTimeout(handle as number);
    expect(typeof handle).toBe("number");
    expect(await new Promise((resolve) => setTimeout(() => resolve("fired"), 0))).toBe("fired");
  });
});

describe("a stored response's rows, with no transaction of their own", () => {
  it("a write that throws at the header leaves the response absent, and its expiry entry to drop the rest", async () => {
    const id = newTestResponseId();
    await runInDurableObject(objectOf(id), async (_instance, state) => {
      const kv = new Proxy(state.storage.kv, {
        get(target, key) {
          if (key === "put")
            return (name: string, value: unknown) => {
              if (name.endsWith(":stored:head")) throw new Error("the header's row failed");
              target.put(name, value);
            };
          const member = Reflect.get(target, key, target) as unknown;
          return typeof member === "function" ? member.bind(target) : member;
        },
      });
      const storage = new Proxy(state.storage, {
        get: (target, key) => (key === "kv" ? kv : Reflect.get(target, key, target)),
      });
      const now = Date.now();
      const op = { type: "keep", id, owner: "o", text: "x".repeat(600_000), earlier: "[]", ttlMs: 60_000 } as const;
      expect(() => writeKept(storage, op, now)).toThrow("the header's row failed");
      const read = { type: "read", ids: [id], withEarlier: [id], owner: "o", maxLength: 2_000_000 } as const;
      expect(await storedResponseOp(state.storage, read, now)).toEqual({ type: "texts", texts: [null] });
      expect(new Expiries(state.storage.kv).due(now + 60_000)).toEqual([{ id, at: now + 60_000 }]);
    });
  });
});
