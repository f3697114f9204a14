import { checkOptionNames } from "../shared/option-names.ts";
import type { FramingOptions } from "./framing.ts";

/** Every option of {@link FramingOptions}: typed as its keys, so that one added there and not here does not compile. */
export const FRAMING_OPTIONS: Record<keyof FramingOptions, 0> = { maxEventLength: 0, contentType: 0 };

/**
 * `options`, once each of its names is one of {@link FramingOptions} (else a `TypeError` naming it):
 * what a built-in framing's stage passes its base. `FramingStream` itself checks nothing, as
 * a framing of your own may take options of its own.
 *
 * @example
 * ```ts
 * super(SSEDecoder, framingOptions(options)); // new SSEDecoderStream({ maxEventLenght: 10 }) throws
 * ```
 */
export function framingOptions(options: FramingOptions): FramingOptions {
  checkOptionNames(options, FRAMING_OPTIONS);
  return options;
}
