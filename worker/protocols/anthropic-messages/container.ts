import { own } from "../../request/json-fields.ts";
import { objectAt, stringAt } from "../client-request.ts";

/**
 * The code-execution container to reuse (`container`: its id, or `{ id, skills }`), for an
 * Anthropic upstream; `null`, or an object without an id (skills alone, which the Worker does not
 * forward), asks for none.
 */
export function containerOf(value: unknown): unknown {
  if (value === undefined || value === null || typeof value === "string") return value ?? undefined;
  const id = own(objectAt(value, "container", "a container id or an object"), "id");
  return id === undefined || id === null ? undefined : stringAt(id, "container.id");
}
