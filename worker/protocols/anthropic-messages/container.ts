import { own } from "../../request/json-fields.ts";
import type { JsonValue } from "../../../src/index.ts";
import { arrayAt, objectAt, stringAt } from "../client-request.ts";

/**
 * The code-execution container to reuse (`container`: its id, or `{ id, skills }`), for an
 * Anthropic upstream; `null`, or an object without an id (skills alone: see {@link containerSkills}),
 * asks for none.
 */
export function containerOf(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === "string") return value ?? undefined;
  const id = own(objectAt(value, "container", "a container id or an object"), "id");
  return id === undefined || id === null ? undefined : stringAt(id, "container.id");
}

/**
 * The `skills` of a `container` object (`{ id?, skills: [{ type, skill_id, version }] }`), as
 * given, for an Anthropic upstream with server tools forwarded (skills run in the code-execution
 * container, on the operator's key); undefined when there are none.
 */
export function containerSkills(value: unknown): JsonValue[] | undefined {
  if (value === null || typeof value !== "object" || Array.isArray(value)) return undefined;
  const skills = own(value as Record<string, unknown>, "skills");
  return skills === undefined || skills === null ? undefined : (arrayAt(skills, "container.skills") as JsonValue[]);
}
