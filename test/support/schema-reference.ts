// The reference for early schema validation: a slow checker, written to be obviously right
// rather than fast, that the incremental one (src/schema/schema-watcher.ts) is compared with.
//
// It re-parses each whole prefix into a tree of values that may still be open, then asks of the
// tree, top down, whether the schema can still be met, by one plain rule per keyword. It shares
// no code with the library: only the rules, which are those of checkToolArguments, each applied
// as soon as the prefix settles it (see earlySchemaValidator's documentation).
import type { JsonValue } from "../../src/index.ts";
import { deepEqual } from "./harness.ts";

/** A value as far as a prefix of JSON text goes; `closed` once its last character is in the prefix. */
export type PrefixNode =
  | {
      kind: "object";
      closed: boolean;
      start: number;
      end: number;
      members: [string, PrefixNode][];
      pendingKey?: { text: string; closed: boolean };
    }
  | { kind: "array"; closed: boolean; start: number; end: number; items: PrefixNode[] }
  | { kind: "string"; closed: boolean; start: number; end: number; text: string }
  | { kind: "number" | "literal"; closed: boolean; start: number; end: number; text: string };

/** Where and why a prefix can no longer be completed into a valid value. */
export interface ReferenceViolation {
  path: string;
  message: string;
}

type Schema = Record<string, unknown>;

const ESCAPES: Record<string, string> = { '"': '"', "\\": "\\", "/": "/", b: "\b", f: "\f", n: "\n", r: "\r", t: "\t" };
const KNOWN_TYPES = ["object", "array", "string", "number", "integer", "boolean", "null"];

/** Parses a prefix of valid JSON text; `undefined` while no value has begun. */
export function parsePrefix(text: string): PrefixNode | undefined {
  let i = 0;
  const skipSpace = (): void => {
    while (i < text.length && " \t\n\r".includes(text[i]!)) i++;
  };
  const readString = (): { text: string; closed: boolean } => {
    i++; // the opening quote
    let out = "";
    while (i < text.length) {
      const char = text[i]!;
      if (char === '"') {
        i++;
        return { text: out, closed: true };
      }
      if (char !== "\\") {
        out += char;
        i++;
        continue;
      }
      // An escape counts only once it is whole.
      if (i + 1 >= text.length) break;
      if (text[i + 1] === "u") {
        if (i + 6 > text.length) break;
        out += String.fromCharCode(Number.parseInt(text.slice(i + 2, i + 6), 16));
        i += 6;
      } else {
        out += ESCAPES[text[i + 1]!]!;
        i += 2;
      }
    }
    i = text.length;
    return { text: out, closed: false };
  };
  const readValue = (): PrefixNode | undefined => {
    skipSpace();
    if (i >= text.length) return undefined;
    const start = i;
    const char = text[i]!;
    if (char === "{") {
      i++;
      const node: PrefixNode = { kind: "object", closed: false, start, end: -1, members: [] };
      skipSpace();
      if (text[i] === "}") {
        i++;
        return { ...node, closed: true, end: i };
      }
      for (;;) {
        skipSpace();
        if (i >= text.length) return node;
        const key = readString();
        skipSpace();
        if (!key.closed || i >= text.length) return { ...node, pendingKey: key };
        i++; // the colon
        const value = readValue();
        if (!value) return { ...node, pendingKey: key };
        node.members.push([key.text, value]);
        if (!value.closed) return node;
        skipSpace();
        if (i >= text.length) return node;
        if (text[i++] === "}") return { ...node, closed: true, end: i };
      }
    }
    if (char === "[") {
      i++;
      const node: PrefixNode = { kind: "array", closed: false, start, end: -1, items: [] };
      skipSpace();
      if (text[i] === "]") {
        i++;
        return { ...node, closed: true, end: i };
      }
      for (;;) {
        const item = readValue();
        if (!item) return node;
        node.items.push(item);
        if (!item.closed) return node;
        skipSpace();
        if (i >= text.length) return node;
        if (text[i++] === "]") return { ...node, closed: true, end: i };
      }
    }
    if (char === '"') {
      const string = readString();
      return { kind: "string", closed: string.closed, start, end: i, text: string.text };
    }
    // A number or a literal ends only at a character that cannot continue it.
    while (i < text.length && /[0-9a-zA-Z.+-]/.test(text[i]!)) i++;
    return {
      kind: /[tfn]/.test(char) ? "literal" : "number",
      closed: i < text.length,
      start,
      end: i,
      text: text.slice(start, i),
    };
  };
  return readValue();
}

/** The first violation of `schema` that the prefix `text` settles, or `undefined` while it can still be met. */
export function referenceViolation(text: string, schema: unknown): ReferenceViolation | undefined {
  const root = parsePrefix(text);
  return root && check(text, root, schema, "");
}

function check(text: string, node: PrefixNode, schema: unknown, path: string): ReferenceViolation | undefined {
  const alternatives = alternativesOf(schema);
  const reasons = alternatives.map((alternative) => checkOne(text, node, alternative, path));
  if (reasons.some((reason) => reason === undefined)) return undefined;
  return alternatives.length > 1 ? { path, message: "Matches none of the allowed shapes (anyOf)." } : reasons[0];
}

function alternativesOf(schema: unknown): Schema[] {
  if (typeof schema !== "object" || schema === null || Array.isArray(schema)) return [{}];
  const s = schema as Schema;
  if (!Array.isArray(s["anyOf"]) || s["anyOf"].length === 0) return [s];
  return [...(s["nullable"] === true ? [{ type: "null" }] : []), ...s["anyOf"].flatMap(alternativesOf)];
}

function checkOne(text: string, node: PrefixNode, s: Schema, path: string): ReferenceViolation | undefined {
  const fail = (message: string, at = path): ReferenceViolation => ({ path: at, message });
  const first = text[node.start]!;
  if (first === "n" && s["nullable"] === true) return undefined;
  const kind =
    first === "{"
      ? "object"
      : first === "["
        ? "array"
        : first === '"'
          ? "string"
          : first === "t" || first === "f"
            ? "boolean"
            : first === "n"
              ? "null"
              : "number";
  const rawType = s["type"];
  const typeList = typeof rawType === "string" ? [rawType] : Array.isArray(rawType) ? (rawType as string[]) : undefined;
  const types = typeList?.every((type) => KNOWN_TYPES.includes(type)) ? typeList : undefined;
  if (types && !types.includes(kind) && !(kind === "number" && types.includes("integer")))
    return fail(`Expected ${types.join(" or ")}, found ${kind}.`);
  const allowed = allowedValues(s);
  const sameKind = (value: JsonValue): boolean => {
    if (kind === "object") return typeof value === "object" && value !== null && !Array.isArray(value);
    if (kind === "array") return Array.isArray(value);
    if (kind === "boolean") return value === (first === "t");
    if (kind === "null") return value === null;
    return typeof value === kind;
  };
  if (allowed && !allowed.some(sameKind)) return fail(allowedText(s));
  const closedValue = (): JsonValue => JSON.parse(text.slice(node.start, node.end)) as JsonValue;
  const notAllowed = (): boolean => allowed !== undefined && !allowed.some((value) => deepEqual(value, closedValue()));
  switch (node.kind) {
    case "string": {
      if (typeof s["maxLength"] === "number" && [...node.text].length > s["maxLength"])
        return fail(`Expected at most ${s["maxLength"]} characters.`);
      const strings = allowed?.filter((value): value is string => typeof value === "string");
      if (strings && !strings.some((value) => (node.closed ? value === node.text : value.startsWith(node.text))))
        return fail(allowedText(s));
      return undefined;
    }
    case "number": {
      if (!node.closed) return undefined;
      const value = Number(node.text);
      if (types && !types.includes("number") && !Number.isInteger(value)) return fail("Expected an integer.");
      if (typeof s["minimum"] === "number" && value < s["minimum"]) return fail(`Expected at least ${s["minimum"]}.`);
      if (typeof s["maximum"] === "number" && value > s["maximum"]) return fail(`Expected at most ${s["maximum"]}.`);
      return node.closed && notAllowed() ? fail(allowedText(s)) : undefined;
    }
    case "literal":
      return node.closed && notAllowed() ? fail(allowedText(s)) : undefined;
    case "object": {
      const properties =
        typeof s["properties"] === "object" && s["properties"] !== null ? (s["properties"] as Schema) : {};
      const closedNames = s["additionalProperties"] === false && s["patternProperties"] === undefined;
      const names = Object.keys(properties);
      for (const [key, value] of node.members) {
        if (closedNames && !names.includes(key)) return fail("A property the schema does not allow.");
        const member = Object.hasOwn(properties, key)
          ? properties[key]
          : s["patternProperties"] === undefined && typeof s["additionalProperties"] === "object"
            ? s["additionalProperties"]
            : {};
        const reason = check(text, value, member, `${path}/${pointerToken(key)}`);
        if (reason) return reason;
      }
      const pending = node.pendingKey;
      if (
        pending &&
        closedNames &&
        !names.some((name) => (pending.closed ? name === pending.text : name.startsWith(pending.text)))
      ) {
        return fail("A property the schema does not allow.");
      }
      if (!node.closed) return undefined;
      const keys = node.members.map(([key]) => key);
      const missing = Array.isArray(s["required"])
        ? s["required"].find((key) => typeof key === "string" && !keys.includes(key))
        : undefined;
      if (missing !== undefined)
        return fail("A required property is missing.", `${path}/${pointerToken(missing as string)}`);
      return notAllowed() ? fail(allowedText(s)) : undefined;
    }
    case "array": {
      const items =
        s["prefixItems"] === undefined &&
        typeof s["items"] === "object" &&
        s["items"] !== null &&
        !Array.isArray(s["items"])
          ? s["items"]
          : {};
      for (const [i, item] of node.items.entries()) {
        if (typeof s["maxItems"] === "number" && i + 1 > s["maxItems"])
          return fail(`Expected at most ${s["maxItems"]} items.`);
        const reason = check(text, item, items, `${path}/${i}`);
        if (reason) return reason;
      }
      if (!node.closed) return undefined;
      if (typeof s["minItems"] === "number" && node.items.length < s["minItems"])
        return fail(`Expected at least ${s["minItems"]} items.`);
      return notAllowed() ? fail(allowedText(s)) : undefined;
    }
  }
}

function allowedValues(s: Schema): JsonValue[] | undefined {
  const list = Array.isArray(s["enum"]) ? (s["enum"] as JsonValue[]) : undefined;
  if (s["const"] === undefined) return list;
  return (list ?? [s["const"] as JsonValue]).filter((value) => deepEqual(value, s["const"]));
}

function allowedText(s: Schema): string {
  const list = Array.isArray(s["enum"]) ? (s["enum"] as JsonValue[]) : [s["const"] as JsonValue];
  // Past 5 values the list is counted, not quoted; each value quoted at most 40 characters.
  if (list.length > 5) return `Expected one of the ${list.length.toLocaleString("en-US")} allowed values.`;
  const shown = list
    .map((value) => {
      const text = JSON.stringify(value);
      return text.length <= 40 ? text : `${text.slice(0, 39)}…`;
    })
    .join(", ");
  return list.length === 1 ? `Expected ${shown}.` : `Expected one of ${shown}.`;
}

function pointerToken(key: string): string {
  return key.replaceAll("~", "~0").replaceAll("/", "~1");
}
