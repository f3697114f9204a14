import type { Env, Settings } from "../env.ts";
import { asHttpError, type HttpError } from "../response/json-error.ts";
import { guardedPost } from "../http/guarded-post.ts";
import type { RequestContext } from "../http/request-context.ts";
import type { Runtime } from "../runtime.ts";

/**
 * {@link guardedPost} for an endpoint of a client protocol: the same checks (CORS, method, token,
 * body size, JSON), and every error before the answer starts, the Worker's own included, written
 * by `render` in that protocol's error shape.
 */
export async function protocolPost(
  request: Request,
  env: Env,
  runtime: Runtime,
  render: (error: HttpError) => Response,
  handle: (body: unknown, context: RequestContext) => Promise<Response>,
  bodyLimit?: (settings: Settings) => { bytes: number; name: string },
): Promise<Response> {
  try {
    return await guardedPost(request, env, runtime, handle, bodyLimit);
  } catch (error) {
    return render(asHttpError(error));
  }
}

/** The message, and the field at fault when the message does not name it already. */
export function withField(error: HttpError): string {
  const { message, field } = error.body;
  return field && !message.includes(`\`${field}\``) ? `${message} (field: ${field})` : message;
}
