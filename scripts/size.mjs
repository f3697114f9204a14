// Size budget (issue 8): bundles what a user imports from each subpath of the built package with
// esbuild (minified ESM for the browser), gzips it (level 9), prints
// a table, and exits 1 when
//   - the core chain for one provider (SSEDecoderStream + that provider's stage +
//     ToolCallAccumulatorStream, imported from `tool-call-stream/<provider>`) exceeds its budget, or
//   - an extra provider stage, added to another provider's chain, adds more than 2 KiB, or
//   - a provider subpath's bundle holds a source file of another provider (the reason the
//     subpaths exist: a Worker that only reads OpenAI streams bundles nothing of the others), or
//   - `streamToolCalls` imported from a provider's subpath (the whole one-call API for that
//     provider) exceeds its budget (issue 36), or
//   - the JSON Schema plug-in (`jsonSchema` from `tool-call-stream/schema`, the final and the
//     early check) exceeds its budget (14.3 KiB and the raises listed beside it, below).
// Needs `npm run build` first (it measures dist/, which is what the package ships).
// With `--package <dir>`, it measures the package as installed in the project <dir> (what
// scripts/check-tarball.mjs does with the packed tarball), resolved as a consumer's bundler does.
// With `--readme`, it also checks the size tables of README.md and docs/performance.md against what
// it measured (each figure within 2% or 100 B, so small changes do not each need an edit, but a
// stale table fails); `--write-readme` rewrites the tables' figures.
// Usage: node scripts/size.mjs [--json] [--package <dir>] [--readme | --write-readme]
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { gzipSync } from "node:zlib";
import * as esbuild from "esbuild";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const KiB = 1024;
/**
 * Issue 8's budget, gzipped: the core chain for one SSE provider (with eventsource-parser, about
 * 1.2 KiB of it, until the library framed SSE itself in issue 36) within 7 KiB (6 KiB until issue 23, 6.25 KiB until issue 36; OpenAI Chat's 7.25
 * KiB, Anthropic's and OpenAI Responses' 7.5 KiB), each extra provider stage within 2.5 KiB (2 KiB
 * until issue 36); issue 14's: a Bedrock chain (event-stream framing + Bedrock stage, which reads
 * InvokeModel's Claude events with the Anthropic decoder, + accumulator) within 8.25 KiB (7 KiB
 * until issue 36).
 */
// Raised from 6 KiB to 6.25 KiB in issue 23's round: the steps after the accumulator waited on
// through one StepHold (one way to put them, 266 B minified), the reasoning-part event that closes
// a signed thinking block in place (issue 25) and the undeclared-tool message (issue 24) brought
// the gzipped SSE chains from 6,117 to about 6,300 B.
// The JSON Schema plug-in (the final check `toolSchemaValidator` and the early one
// `earlySchemaValidator`, incremental parser included), which issue 27 grew from 4,972 to about
// 9,500 B to check what the JSON Schema Test Suite checks: its budget sits a little above that.
// Raised from 9.5 KiB to 12 KiB in issue 33: `pattern` and `patternProperties` run on the
// library's own linear-time matcher (src/schema/pattern/: a parser, a Thompson compiler and a
// Pike VM, about 2,500 B gzipped) instead of the runtime's backtracking RegExp, which a client's
// schema could pin for minutes. Then to 13.5 KiB, still in issue 33: one work budget per call
// charged by real work, enum sets and the sorted strings the early check narrows by binary
// search, uniqueItems once per array, $ref compiled once per target, exact decimal multipleOf
// (about 1,400 B gzipped). To 13.6 KiB (hostile-schemas, 2026-12-05): each schema object
// compiled once, not only a `$ref`'s target (a `$ref` into another's target compiled that part
// again, 61 times over for refs to 60 nested levels), and a compilation cut short by its limits
// marked for checkToolSchema to refuse (it accepted anything there, unsaid): 13,824 -> 13,854 B.
// To 13.7 KiB (schema-ref-fix, 2026-12-05): a `$ref` inside a schema with an `$id` of its own (or
// reached by a pointer through one) is no longer resolved against the root, which rejected valid
// values; the resource is compiled apart from the root's (one object may be in both): 13,880 -> 13,992 B.
// To 13.9 KiB (schema-scope, 2026-12-05): a compiled schema's exact/decided flags are settled over
// the whole graph once it is compiled (Kahn's order over the in-place links, then a linear
// spread), not read from kids still being compiled, which left every recursive schema inexact (its
// oneOf "more than one", not, if and maxContains skipped, early detection lost): about 215 B;
// resolving `$ref`s in their `$id` resource cost nothing measurable: 13,992 -> 14,199 B; leaves kept
// out of the flags' graph (faster compilation) -> 14,228 B.
// To 14.0 KiB (draft7-ref, 2026-12-05): a root whose `$schema` says draft 7 or older ignores an
// `$id` beside a `$ref` (that draft ignores a `$ref`'s siblings), which turned a valid draft-07
// schema into a 400 and left its `$ref` unread; the dialect read once and carried: 14,228 -> 14,314 B.
// To 14.1 KiB (partial-number, 2026-12-05): IncrementalJsonParser's `value` reads a number being
// read again only once it has doubled since it last read it (each read tested the whole token: a
// long number read per delta was quadratic work), its length kept: 14,316 -> 14,359 B.
// To 14.2 KiB (schemas59, 2026-12-05): the final check keeps the verdicts of a schema reached by
// more than one way (a `$ref`'s target, branches that meet again), so it checks it once per value:
// levels of `allOf: [{$ref}, {$ref}]` were 2^levels walks (a 1 KB schema checkToolSchema accepts
// refused every call, `{}` included, as past its budget): 14,359 -> 14,490 B.
// To 14.3 KiB (schemas59, 2026-12-05): an array's items are read only where a schema applies to
// them, an object's keys listed once per check, and a schema without a keyword that reads every
// key reads its own `properties` (19,000 `{type: "array"}` schemas on 200,000 items took 12.8 s
// of one call, uncharged; n schemas on n keys were n² steps): 14,511 -> 14,642 B.
// Then by 32 B (review59a, 2026-12-05): the kept verdict of a schema reached by more than one way
// records where its failure was reported, a place compared by its path's keys (samePlace), so a
// value holding one object in two places has each place's issues (the second's were lost):
// 14,642 -> 14,669 B.
// Raised in issue 36's round (2026-12-02), each for what the chains now do, measured gzipped with
// eventsource-parser at c71816a, then at the tree of each change:
// - arguments given as objects (Gemini's always, Anthropic's `input`, Ollama's, some Chat
//   servers') are written as JSON text with a stack of its own (`jsonText`, src/shared/json-text.ts,
//   about 330 B), so arguments nested 100,000 deep in a body are the accumulator's `too-deep`, not
//   a stack overflow (issue 33, finding 5). The SDK path's writer (`toJSON`, boxed values, cycles,
//   BigInts: objectJsonText, 1,126 B minified) comes with each SDK object and is no part of a chain:
//   keeping it out saved 280 to 300 B of every chain that reads objects.
// - the usage's cache and reasoning token counts read from each provider's own fields (6c2cf34):
//   120 to 180 B in every chain.
// - the accumulator's withdrawn calls and `pause` (5072258): about 70 B in every chain; the
//   Anthropic decoder's caller, fallback and compaction blocks and withdrawal: 447 B in Anthropic's
//   and Bedrock's (which reads InvokeModel with it), with the `message_start.content` blocks of
//   bcb718c (117 B).
// - OpenAI Chat: the reasoning fields a thinking model needs back on the next turn
//   (`reasoning_content`, `reasoning`, `reasoning_details` merged by index, 08ba870: 369 B).
// - OpenAI Responses: the built-in tools' items as calls (`apply_patch_call`, `shell_call`,
//   `local_shell_call`, `mcp_call`), what Codex runs (86a9b3b: 848 B).
// So an SSE chain 6.25 -> 7 KiB (gemini 6,315 -> 6,945 B, cohere 5,860 -> 6,131), OpenAI Chat
// 7.25 KiB (6,141 -> 7,170), Anthropic 7.5 KiB (6,300 -> 7,406), OpenAI Responses 7.5 KiB
// (6,307 -> 7,459), Bedrock 7 -> 8.25 KiB (7,030 -> 8,156), an extra provider 2 -> 2.5 KiB (the
// Bedrock stage brings the Anthropic decoder: 1,881 -> 2,381).
// Issue 37: OpenAI Responses 7.5 -> 8 KiB (7,556 -> 8,168 B) for the delta events read without
// their payload objects (ResponsesFastDelta, about 600 B gzipped), the most of its `for await` cost.
// Raised in issue 34 for the next turn in the stream's true order: the accumulator notes where each
// run of text, call and reasoning part came (now src/shared/turn-blocks.ts, the finish's `order`),
// about 630 B minified and 240 B gzipped in every chain (OpenAI Chat 7,499 -> 7,740 B, OpenAI
// Responses 8,354 -> 8,603, Bedrock 8,670 -> 8,902, streamToolCalls for OpenAI Chat 10,161 -> 10,403).
export const BUDGET = {
  // Raised in the moderation-results round (2026-12-05, on 8ec5659): the accumulator keeps the
  // provider's moderation results (OpenAI's moderated completions, a `moderation` delta) for the
  // finish's `moderation`, 19 to 21 B in every chain (Gemini's 7,168 -> 7,189, Anthropic's 7,664 ->
  // 7,683, Bedrock's 9,197 -> 9,216), and the OpenAI Chat and Responses decoders read them (a Chat
  // chunk's `moderation`, a response's): OpenAI Chat's 7,803 -> 7,847, OpenAI Responses' 8,771 -> 8,809.
  // + 48 in the continuation round (2026-12-05, on 3e53625): the accumulator passes a finish's
  // `continuationToken` on (one more key of the finish delta it copies: 8 to 10 B in every chain),
  // and the Gemini decoder keeps each candidate's latest token for a CONTINUATION finish (a long
  // decode cut by the per-request limit, which the token goes on with): Gemini's 7,189 -> 7,234 B.
  // + 16 in the continued-grounding round (2026-12-05): GeminiGrounding gives out what it kept at a
  // CONTINUATION finish, so that the Worker's continuation (one decoder over all its requests)
  // gets each request's grounding, whose indexes count that request's own text: Gemini's 7,234 -> 7,251 B.
  // + 16 in the late-provider-error round (2026-12-05): a provider's error fails the turn's finish
  // (reason `error`, a refusal aside), even one after its finish reason, so that no tool loop goes on
  // from a turn the provider reported failed: 9 to 16 B in every chain (Gemini's 7,250 -> 7,266 B).
  // + 32 (+ 40 on Anthropic's and Bedrock's chains: 8,128 -> 8,163 B): without repair, bytes after the value are trailing-data only when the text before them is JSON (one JSON.parse of it), as the parser says (repair-paths, 2026-12-05): OpenAI Chat's 7,867 -> 7,899 B, Gemini's 7,261 -> 7,296
  // + 8 in the turn-faults round (2026-12-05): the accumulator sets a failed turn's `error` after the
  // `turnBlocks` plug-in (whose `approval` overrode it), and one choice's finish completes only its
  // own calls (`n > 1`: another choice's call still open at the end is cut, never closed by repair):
  // 9 to 19 B in every chain (Gemini's 7,298 -> 7,308 B).
  // + 8 (fragments59, 2026-12-05: what the fast readers hand on (a fragment, a text delta) is copied when it may be a view of its read (`ownText`, which now returns a text under 13 characters as it is), so an open call's 64 kept fragments and the finish's text no longer hold a 1 MiB read apiece): 6 to 9 B in every chain (Gemini's 7,308 -> 7,314 B).
  // + 80 in the finish-message round (2026-12-05): the Gemini decoder reads a failed finish's
  // `finishMessage`, a filter's as the finish's `refusal.explanation` (which the encoders carry as
  // Anthropic's), an error's as a provider error's `data` (the model's malformed call, which no
  // message may quote), only for the first candidate: Gemini's 7,314 -> 7,395 B, the other chains unchanged.
  // + 16 (fault-review, 2026-12-05): a call whose index another call takes (a new id with a name at an index still open: a block or item started twice, a retry spliced in) before its arguments closed is cut, never closed by repair at the finish (`{"city":` was a complete `{"city": null}`): 15 to 23 B in every chain (Gemini's 7,395 -> 7,412 B).
  // + 8 (schema-dup-budget, 2026-12-05): the accumulator gives the validator the call's arguments
  // text, where a member name one of its objects repeats is (the value holds only the last): 4 to
  // 7 B in every chain (Gemini's 7,412 -> 7,417 B, Anthropic's 8,239 -> 8,244, OpenAI Chat's 7,946 -> 7,951).
  // + 208 (repairnames, 2026-12-05): a provider's final arguments text that neither is nor extends
  // what streamed (which the early check read and a client was shown) is no longer taken silently:
  // the same value written otherwise keeps the streamed text, another value is an
  // `arguments-mismatch` invalid-tool-call (accumulate/final-arguments.ts: both texts read by the
  // call's own parse, compared as JSON with sorted members): 201 to 214 B in every chain (Gemini's
  // 7,416 -> 7,624 B, OpenAI Chat's 7,944 -> 8,158).
  chain:
    // + 320 (hostile, 2026-12-06): a call's arguments or a provider's payload with a member name past 16,383 characters is never parsed (`long-member-name`, `parseJsonText` in the decoders, the partial parser's key check): V8 kept such names interned, each call's compared with all those before, across requests (bench/hostile-long-names.ts: 1,600 calls 45.5 s -> 3.0 s): about 300 B gzipped in each chain.
    // + 96 (longnames, 2026-12-06): a provider's payload with a member name past 16,383 characters is read with a reserved key in place of each (`parseJsonText`), and arguments holding that key are the `long-member-name` call, where the whole payload was skipped (its other calls, text, usage and finish lost): Gemini 8,582 -> 8,668 B.
    // + 112 (hostile71, 2026-12-07): the scan before every payload's parse skims spans of 16,384 characters for a long name's content instead of reading every string (an ordinary 1 MB whole response: 35.5 % of JSON.parse's time -> 1.5 %, bench/hostile-long-names.ts), its exact per-string scan kept for a stretch that could be JSON's own: Gemini 8,655 -> 8,796 B with the long names of its own (longMemberNameKey).
    // + 8 (lead71, 2026-12-07): a long member name that is no JSON string (a raw line feed, a bad escape) refused as JSON.parse refuses the text, where the replacement let it by
    8 +
    112 +
    96 +
    320 +
    7 * KiB +
    24 +
    48 +
    16 +
    16 +
    32 +
    8 +
    8 +
    80 +
    16 +
    8 +
    208 +
    72 +
    56 +
    144 +
    16 +
    160 +
    8 +
    128 +
    8 +
    32 +
    16 +
    8, // + 8 (faults, 2026-12-07): the chain ends at the provider's own end or an in-stream error that ends its stream, the body cancelled there (a `done` after Anthropic's, Bedrock's, Gemini's, Ollama's and Gemini Interactions' errors; ChainPump stops reading once the chain closed): 8,808 -> 8,816 B (Gemini's chain); + 16 (tenk, 2026-12-06): the SSE framing finds a blank line at an LF without a search (one `indexOf` of three per event on a 10 KB call's 2,962 events): Gemini's 8,255 -> 8,270 B; + 32 (library-options, 2026-12-06): the error of a call that lost a fragment names it (`lostFragment`: its id and tool name), where one constant said "this call": Gemini's 8,217 -> 8,251 B; + 8 (library-options, 2026-12-06): the framings' cores, AnthropicDecoder and ToolCallAccumulatorCore check their option names, the chain giving each stage its own options (`pickOptions`): Gemini's 8,206 -> 8,217 B; + 128 (streams67, 2026-12-06): a call open when a payload was skipped (not JSON, a sequence gap) may miss a fragment: it ends an invalid call (`malformed-payload`) and fails the turn, unless the provider's final text settles it (the registry's `skipped`, `lost`) (Gemini's 8,077 -> 8,193 B, Cohere's 6,983 -> 7,107, Ollama's 6,291 -> 6,413); + 8 (types67, 2026-12-06): ToolCallAccumulatorStream's option names are the core's (which `new ToolCallAccumulator` checks now) and `output`, one table spread into the other: 5 to 8 B in every chain (Gemini's 8,077 -> 8,085 B; Cohere's and Ollama's stages check the provider stages' limits: 6,983 -> 7,017 B, 6,291 -> 6,321 B); + 160 (newcomer66, 2026-12-06): every stage constructor checks its option names, as streamToolCalls does (a JavaScript caller's typo or another stage's option, `new ToolCallAccumulatorStream({ maxArgumentLength })`, is a TypeError naming it and the stage's options, not ignored with the default in force): the check and each chain stage's option names (Gemini's 7,893 -> 8,077 B, Cohere's 6,833 -> 6,983, Ollama's 6,138 -> 6,291); + 16 (perf63, 2026-12-06): a usage read without JSON's round trip with a reviver (tens of microseconds a usage in V8, about 18,000 instructions of a small answer in workerd); + 144 (repeated-ids, 2026-12-06): a second call under an earlier call's id is a call of its own under that id with a suffix (`call_1_2`), for every provider, in the accumulator (Anthropic's own check that failed the body gone; the suffix search 8 to 24 B more than failing) (Gemini's 7,750 -> 7,875 B; as a call of its own 7,898 on 7,875's base); + 56 (stop-fixes, 2026-12-05): a call completed at a stop or a provider error is marked `stopped` (no runner runs it: its turn failed), a provider error gives the calls known whole before itself, a call marked whole needs a closed value: Gemini's 7,697 -> 7,750 B; + 72 (lib-faults, 2026-12-05): a stop before the finish (a limit, a cancel, a schema stop, a cut) completes the calls known whole (`tool-call-whole`, a new id at a call's index) instead of discarding them, the accumulator's `abort` (Gemini's 7,624 -> 7,697 B)
  // Raised from 7.25 KiB in issue 34: the accumulator's hook for OpenAI's parallel wrapper (a
  // wrapper call held, then replaced by the calls it names; the plug-in, parallel-wrapper.ts, comes
  // only with tools): 24 B in every chain, OpenAI Chat's 7,418 -> 7,442 B (ef71ade had 6 B left).
  // Issue 34's held finish (`heldFinish`: a finish after calls that does not say they are the
  // reason waits until it proves final) costs 109 B; it fits since the object writer became a
  // plug-in (7,468 B).
  // + 72 (decode37, 2026-12-06): the Chat reader keeps the head and tail it compares with every
  // chunk as flat strings once 32 chunks repeated them (47 B), and the call order passes on a
  // fragment of the call last argued without its Map (26 B): about 2 % of a 10 KB call's workerd
  // instructions (BENCHMARKS.md, "The 10 KB call's compares"): 9,013 -> 9,086 B. (The first term
  // after the KiB, 120, is these 72 and the 48 it was.)
  // + 32 (shapes37, 2026-12-06): OpenAI Chat's first delta of a call made from one object literal
  // (`toolCallChunk`), whose shape V8 keeps, where one grown key by key died at a full collection
  // with the optimized code that read it (BENCHMARKS.md, "What outlives a scavenge"): 9,086 ->
  // 9,119 B. (The first term after the KiB is now 152: these 32 and the 120 above.)
  openaiChain:
    // + 8 (faults75, 2026-12-07): OpenAI Chat's error chunk (`error`, or vLLM's `object: "error"`) ends the response, a `done` after it, so a body held open after it is cancelled: 9,649 -> 9,662 B
    8 +
    // + 320 (hostile, 2026-12-06): a call's arguments or a provider's payload with a member name past 16,383 characters is never parsed (`long-member-name`, `parseJsonText` in the decoders, the partial parser's key check): V8 kept such names interned, each call's compared with all those before, across requests (bench/hostile-long-names.ts: 1,600 calls 45.5 s -> 3.0 s): about 300 B gzipped in each chain.
    // + 96 (longnames, 2026-12-06): a provider's payload with a member name past 16,383 characters is read with a reserved key in place of each (`parseJsonText`), and arguments holding that key are the `long-member-name` call, where the whole payload was skipped (its other calls, text, usage and finish lost): 9,427 -> 9,514 B.
    // + 112 (hostile71, 2026-12-07): the scan before every payload's parse skims spans of 16,384 characters for a long name's content instead of reading every string (an ordinary 1 MB whole response: 35.5 % of JSON.parse's time -> 1.5 %, bench/hostile-long-names.ts), its exact per-string scan kept for a stretch that could be JSON's own: Gemini 8,655 -> 8,796 B with the long names of its own (longMemberNameKey).
    // + 8 (lead71, 2026-12-07): a long member name that is no JSON string (a raw line feed, a bad escape) refused as JSON.parse refuses the text, where the replacement let it by
    8 +
    112 +
    96 +
    320 +
    7.625 * KiB +
    152 +
    8 +
    8 +
    32 +
    16 +
    8 +
    24 +
    208 +
    160 +
    24 +
    80 +
    8 +
    56 +
    136 +
    8 +
    176 +
    128 +
    8 +
    8 +
    32 +
    32, // + 32 (tenk, 2026-12-06): the SSE framing finds a blank line at an LF without a search (one `indexOf` of three per event on a 10 KB call's 2,962 events), and OpenAI Chat's call order marks a choice argued once per call, not per fragment (a Map write each): 8,979 -> 9,014 B; + 32 (library-options, 2026-12-06): the error of a call that lost a fragment names it (`lostFragment`: its id and tool name), where one constant said "this call": 8,945 -> 8,979 B; + 8 (library-options, 2026-12-06): the framings' cores, AnthropicDecoder and ToolCallAccumulatorCore check their option names, the chain giving each stage its own options (`pickOptions`): 8,940 -> 8,945 B; + 8 (library-options, 2026-12-06): the finish event built in a module of its own (accumulate/finish-event.ts), the accumulator core split along it: 8,930 -> 8,940 B; + 128 (streams67): a call a skipped payload may have cut (see `chain`): 8,805 -> 8,923 B; + 176 (newcomer66): the stages check their option names (see `chain`): 8,629 -> 8,805 B; + 8 (perf63): a usage without JSON's round trip (see `chain`); + 136 (repeated-ids, 2026-12-06): a second call under an earlier call's id is a call of its own under that id with a suffix (`call_1_2`), for every provider, in the accumulator (Anthropic's own check that failed the body gone; the suffix search 8 to 24 B more than failing) (8,473 -> 8,601 B); + 56 (stop-fixes): see `chain`: 8,417 -> 8,470 B on the base before reasoning-text; + 8 (reasoning-text, 2026-12-05): the accumulator keeps a reasoning delta's `field` (see `responsesChain`); + 80 (lib-faults, 2026-12-05): a stop before the finish (a limit, a cancel, a schema stop, a cut) completes the calls known whole (`tool-call-whole`, a new id at a call's index) instead of discarding them, the accumulator's `abort`, for which `chatEmit` marks each followed call rather than ending it at a cut: 8,344 -> 8,417 B; + 24: a call begun before the one before it had any argument text proves nothing at a cut (Kimi sends every header first; `chatEmit`'s `argued`): 8,317 -> 8,344 B; + 160: a cut completes each Chat call a later index followed (`chatEmit`: each choice's order of call indexes, whose followed calls end at `[DONE]` or the input's end; such whole calls were discarded at every cut before the finish): 8,158 -> 8,317 B; + 208: final arguments settled, never taken silently (see `chain`, repairnames): 7,944 -> 8,158 B; + 24: a displaced call cut (see `chain`, fault-review): 7,926 -> 7,946 B; + 8: fast readers' fragments of their own (see `chain`): 7,917 -> 7,926 B; + 16: a failed turn's finish and one choice's finish (see `chain`): 7,898 -> 7,917 B; + 8: a provider's error fails the finish (see `chain`): 7,856 -> 7,869 B; + 48: moderation results, + 8: `continuationToken` (see `chain`): 7,847 -> 7,857 B
  // + 32 (2026-12-05): a message of its own for a second message spliced into the open one (a retry
  // an intermediary wrote into the body), where the default said the provider reported an error, which
  // it did not: 7,683 -> 7,721 B (Bedrock's, which reads InvokeModel with the decoder, 9,216 -> 9,253).
  // + 24 (fault-calls, 2026-12-05): a held `tool_use` (stopped, waiting for a `fallback` block or a
  // `refusal` stop that would withdraw it) is delivered complete when the input ends or an error
  // arrives, before the error (it was discarded: a fault withdraws nothing); 4 B of it saved by
  // dropping a block's `streamed` flag: 7,729 -> 7,753 B. Bedrock's + 32: it reads InvokeModel with
  // the decoder, now asked for the held call at the end and before an exception: 9,261 -> 9,294 B.
  // + 72 (wire-2026, 2026-12-05): a compaction's own sampling (a `compaction` entry of
  // `usage.iterations`), which Anthropic bills but leaves out of the top-level counts, is counted in
  // the usage (a compacting turn's 180,000 input tokens were missing): 7,764 -> 7,830 B; Bedrock's,
  // which reads InvokeModel with the decoder, 9,305 -> 9,374 B.
  // + 288 in issue 37 (perf-responses, 2026-12-05): an `input_json_delta` read with the Responses
  // reader's tools: its head matched as a sticky pattern of the last one (`textPattern`, a third of
  // the slice-and-compare), its literal scanned (`jsonLiteralEnd`) and its two-character escapes
  // read without `JSON.parse` (`jsonLiteralText`): `for await` over Anthropic's one-call bodies 16 to
  // 20 % less CPU (10 KB: 1.39 -> 1.13 times the floor). 7,840 -> 8,128 B; Bedrock's, which reads
  // InvokeModel with the decoder, + 300 B (9,684); streamToolCalls for Anthropic + 303 B (10,672).
  anthropicChain:
    // + 96 (msgpath, 2026-12-07): Anthropic's `text_delta` read without `JSON.parse` as its `input_json_delta` is, and either with white space before or between its closing braces (Anthropic pads them so; the fast path read none of them): `JSON.parse` 110,000 instructions less a `/v1/messages` request: 9,714 -> 9,808 B
    96 +
    // + 320 (hostile, 2026-12-06): a call's arguments or a provider's payload with a member name past 16,383 characters is never parsed (`long-member-name`, `parseJsonText` in the decoders, the partial parser's key check): V8 kept such names interned, each call's compared with all those before, across requests (bench/hostile-long-names.ts: 1,600 calls 45.5 s -> 3.0 s): about 300 B gzipped in each chain.
    // + 96 (longnames, 2026-12-06): a provider's payload with a member name past 16,383 characters is read with a reserved key in place of each (`parseJsonText`), and arguments holding that key are the `long-member-name` call, where the whole payload was skipped (its other calls, text, usage and finish lost): 9,499 -> 9,581 B.
    // + 112 (hostile71, 2026-12-07): the scan before every payload's parse skims spans of 16,384 characters for a long name's content instead of reading every string (an ordinary 1 MB whole response: 35.5 % of JSON.parse's time -> 1.5 %, bench/hostile-long-names.ts), its exact per-string scan kept for a stretch that could be JSON's own: Gemini 8,655 -> 8,796 B with the long names of its own (longMemberNameKey).
    // + 8 (lead71, 2026-12-07): a long member name that is no JSON string (a raw line feed, a bad escape) refused as JSON.parse refuses the text, where the replacement let it by
    8 +
    112 +
    96 +
    320 +
    7.5 * KiB +
    // + 16 (tenk, 2026-12-06): the SSE framing finds a blank line at an LF without a search (one `indexOf` of three per event on a 10 KB call's 2,962 events): 9,169 -> 9,188 B
    16 +
    16 +
    32 +
    8 +
    24 +
    8 +
    72 +
    288 +
    40 +
    16 +
    8 +
    24 +
    8 +
    16 +
    8 +
    8 +
    32 +
    216 +
    96 +
    80 +
    56 +
    112 +
    144 +
    8 +
    128 +
    8 +
    8 +
    32, // + 32 (library-options, 2026-12-06): the error of a call that lost a fragment names it (`lostFragment`: its id and tool name), where one constant said "this call": 9,137 -> 9,169 B; + 8 (library-options, 2026-12-06): the framings' cores, AnthropicDecoder and ToolCallAccumulatorCore check their option names, the chain giving each stage its own options (`pickOptions`): 9,131 -> 9,137 B; + 8 (library-options, 2026-12-06): the finish event built in a module of its own (accumulate/finish-event.ts), the accumulator core split along it: 9,113 -> 9,131 B; + 128 (streams67): a call a skipped payload may have cut (see `chain`): 8,991 -> 9,110 B; + 8 (types67): see `chain`: 8,991 -> 8,996 B; + 144 (newcomer66): the stages check their option names (see `chain`): 8,814 -> 8,991 B; + 112 (repeated-ids, 2026-12-06): a second call under an earlier call's id is a call of its own under that id with a suffix (`call_1_2`), for every provider, in the accumulator (Anthropic's own check that failed the body gone; the suffix search 8 to 24 B more than failing) (8,721 -> 8,829 B); + 56 (stop-fixes): see `chain`: 8,674 -> 8,723 B; + 80 (lib-faults): see `chain`: 8,595 -> 8,674 B; + 96 (round-trip, 2026-12-05): a refusal's beta fallback fields (`fallback_credit_token`, `fallback_has_prefill_claim`, `recommended_model`) kept on the finish, as the retry on the fallback model needs them (they were dropped; three long field names each way, tried as a loop and a spread: no smaller): 8,497 -> 8,595 B; + 216: final arguments settled (see `chain`, repairnames): 8,288 -> 8,497 B; + 32 (faults61, 2026-12-05): a `tool_use` id the message gave already fails the body as a spliced message does (the set of the message's ids, the check, its message), never a second call with one id: 8,232 -> 8,285 B; + 8: a tool input fragment of no open block is passed on, not dropped (fault-review): 8,244 -> 8,247 B; + 8: the validator is given the call's arguments text (see `chain`): 8,239 -> 8,244 B; + 16: a displaced call cut (see `chain`, fault-review): 8,217 -> 8,239 B; + 8: a stopped call held while another stops (two blocks open at once) is ended then, not overwritten (its end lost, a fault discarded it): 8,215 -> 8,217 B; + 24 (fault-review, 2026-12-05): a payload of no event type holding an `error` (an HTTP 200 whose body is a JSON error, a gateway's `data: {"error": ...}`) is the provider's error (it was dropped: an abort alone, the provider's message lost): 8,186 -> 8,215 B; + 8: fast readers' fragments of their own (see `chain`): 8,177 -> 8,186 B; + 16: a failed turn's finish and one choice's finish (see `chain`): 8,164 -> 8,177 B; + 8: a provider's error fails the finish (see `chain`): 7,753 -> 7,762 B; + 16: moderation results, + 8: `continuationToken` (see `chain`): 7,721 -> 7,729 B
  // Raised from 8 KiB in issue 34: the tools OpenAI runs itself (web search, code interpreter,
  // image generation, file search) reported as provider-executed calls, a code interpreter's code
  // streamed as its input (in ResponsesBuiltInCalls, which the stage brings): 8,073 -> 8,232 B.
  // Then 8.25 KiB, still in issue 34: a call whose item never came done ends with its item's
  // arguments in `response.completed`'s output (8,304 -> 8,354 B). Then by 80 B, still in issue 34:
  // a refusal's deltas kept until its `.done`, given at its item's, the response's or the input's
  // end when `.done` never came, so that a stream cut before `.done` keeps the refusal it streamed,
  // as it keeps its text ("nothing lost before a fault"): 8,703 -> 8,778 B.
  // + 264 in issue 37 (perf-responses, 2026-12-05): the delta events read faster, for `for await`
  // over the 10 KB Responses body at the target's line (1.44 to 1.48 times the floor): the start
  // and middle each event shares matched as sticky patterns of their text (`textPattern`, a third
  // of the slice-and-compare), the tail (`logprobs`, `obfuscation`) by one pattern, the delta's
  // two-character escapes read without `JSON.parse` (`jsonLiteralText`), and an event in order
  // emitted without its payload object (`SequenceReorderer.next`): 8,833 -> 9,098 B; the stage on
  // OpenAI Chat's + 263 B (3,564), streamToolCalls for OpenAI Responses + 270 B (10,554).
  responsesChain:
    // + 56 (review 77, reviewer77): that text read only in a stream that opened with the response (`response.created`), not one resumed after a cut (`starting_after`), whose `.done` events end text the client has: 11,239 -> 11,289 B
    56 +
    // + 24 (review 77, whole77): that message known by its id and by its place, as a server may name it anew at its end or not at all (the text was given twice): 11,208 -> 11,239 B
    24 +
    // + 224 (wire77, 2026-12-07): a message's text that no `response.output_text.delta` streamed is read once from the events that end it (`output_text.done`, its `output_item.done`, `response.completed`: gemini-web2api's and OpenRouter's streams, which gave an empty answer; `ResponsesFinalText`): 10,991 -> 11,208 B
    224 +
    // + 8 (faults75, 2026-12-07): a bare `{"error": ...}` (vLLM's and SGLang's Responses error: no `type`, no `response.failed` after it) ends the stream, so a body held open after it is cancelled: 10,978 -> 10,991 B
    8 +
    // + 280 (respath, 2026-12-07): OpenAI Responses' delta events read without their payload object in OpenAI's current order too (`type`, then the keys sorted: `content_index`, `delta`, `item_id`, ..., `sequence_number`), which every recorded OpenAI stream of 2026 and the bench's scripted provider write and which went to the full `JSON.parse` (`ResponsesFastDelta`): 10,683 -> 10,978 B
    280 +
    // + 320 (hostile, 2026-12-06): a call's arguments or a provider's payload with a member name past 16,383 characters is never parsed (`long-member-name`, `parseJsonText` in the decoders, the partial parser's key check): V8 kept such names interned, each call's compared with all those before, across requests (bench/hostile-long-names.ts: 1,600 calls 45.5 s -> 3.0 s): about 300 B gzipped in each chain.
    // + 136 (longnames, 2026-12-06): a provider's payload with a member name past 16,383 characters is read with a reserved key in place of each (`parseJsonText`), and arguments holding that key are the `long-member-name` call, where the whole payload was skipped (its other calls, text, usage and finish lost): 10,422 -> 10,552 B (it holds both parsers: the payload's and the strict one for a call's raw arguments).
    // + 112 (hostile71, 2026-12-07): the scan before every payload's parse skims spans of 16,384 characters for a long name's content instead of reading every string (an ordinary 1 MB whole response: 35.5 % of JSON.parse's time -> 1.5 %, bench/hostile-long-names.ts), its exact per-string scan kept for a stretch that could be JSON's own: Gemini 8,655 -> 8,796 B with the long names of its own (longMemberNameKey).
    // + 8 (lead71, 2026-12-07): a long member name that is no JSON string (a raw line feed, a bad escape) refused as JSON.parse refuses the text, where the replacement let it by
    8 +
    112 +
    136 +
    320 +
    8.5 * KiB +
    // + 24 (tenk, 2026-12-06): the SSE framing finds a blank line at an LF without a search (one `indexOf` of three per event on a 10 KB call's 2,962 events): 10,103 -> 10,123 B
    24 +
    80 +
    32 +
    8 +
    16 +
    264 +
    32 +
    8 +
    8 +
    32 +
    24 +
    208 +
    8 +
    88 +
    40 +
    40 +
    128 +
    8 +
    16 +
    184 +
    8 +
    128 +
    40, // + 40 (library-options, 2026-12-06): the error of a call that lost a fragment names it (`lostFragment`: its id and tool name), where one constant said "this call": 10,056 -> 10,096 B; + 128 (streams67): a call a skipped payload may have cut (see `chain`): 9,925 -> 10,037 B; + 8 (types67): see `chain`: 9,925 -> 9,930 B; + 184 (newcomer66): the stages check their option names (see `chain`): 177 B more (-> 9,925 B); + 16 (perf63): a usage without JSON's round trip (see `chain`); + 8 (stopped-snapshots, 2026-12-06): a call completed after a provider error is `stopped` by the state's `providerErrorSeen`, so a restored snapshot marks it too (9,702 -> 9,710 B); + 128 (repeated-ids, 2026-12-06): a second call under an earlier call's id is a call of its own under that id with a suffix (`call_1_2`), for every provider, in the accumulator (Anthropic's own check that failed the body gone; the suffix search 8 to 24 B more than failing) (9,580 -> 9,702 B); + 40 (stop-fixes): see `chain`: 9,505 -> 9,544 B on the base before reasoning-text; + 40 (reasoning-text, 2026-12-05): a reasoning delta says whether it is the item's summary or its raw `reasoning_text` (which gpt-oss needs back), and the item part keeps its `content`; both were lost: 9,424 -> 9,462 B on the base before lib-faults; + 88 (lib-faults): see `chain`: 9,424 -> 9,505 B; + 8 (faults61, 2026-12-05): a call item done `incomplete` is left for the finish to judge, never completed as it was: 9,416 -> 9,424 B; + 208: final arguments settled (see `chain`, repairnames): 9,205 -> 9,416 B; + 24: a displaced call cut (see `chain`, fault-review): 9,181 -> 9,203 B; + 32: a bare `error` payload is the provider's error (see `anthropicChain`, fault-review): 9,152 -> 9,181 B; + 8: fast readers' fragments of their own (see `chain`): 9,143 -> 9,152 B; + 8: a failed turn's finish and one choice's finish (see `chain`), not `approval`: 9,132 -> 9,143 B; + 16: a provider's error fails the finish (see `chain`): 8,818 -> 8,833 B; + 32: moderation results, + 8: `continuationToken` (see `chain`): 8,809 -> 8,817 B
  // Raised from 8.25 KiB in issue 34: Claude on Bedrock reads with the Anthropic decoder, which keeps
  // server tools' results and their calls' blocks for the next turn (8,367 -> 8,472 B). Then 8.875
  // KiB, still in issue 34: Converse's own server tools' results (Amazon Nova's system tools, a
  // `toolResult` block kept for the next turn, which must send it back): 8,946 -> 8,995 B, with 20 B
  // saved in the InvokeModel chunks' base64 (streamToolCalls for Bedrock 10,155 -> 10,193 B).
  // Then 9 KiB, still in issue 34: that result's deltas bounded by maxArgumentsLength, as a call's
  // arguments are (a review found them unbounded): 9,024 -> 9,088 B.
  bedrockChain:
    // + 72 (msgpath, 2026-12-07): Anthropic's `text_delta` read without `JSON.parse` as its `input_json_delta` is, and either with white space before or between its closing braces (Anthropic pads them so; the fast path read none of them): `JSON.parse` 110,000 instructions less a `/v1/messages` request: Bedrock's, which reads InvokeModel with the decoder, 11,560 -> 11,637 B
    72 +
    // + 320 (hostile, 2026-12-06): a call's arguments or a provider's payload with a member name past 16,383 characters is never parsed (`long-member-name`, `parseJsonText` in the decoders, the partial parser's key check): V8 kept such names interned, each call's compared with all those before, across requests (bench/hostile-long-names.ts: 1,600 calls 45.5 s -> 3.0 s): about 300 B gzipped in each chain.
    // + 96 (longnames, 2026-12-06): a provider's payload with a member name past 16,383 characters is read with a reserved key in place of each (`parseJsonText`), and arguments holding that key are the `long-member-name` call, where the whole payload was skipped (its other calls, text, usage and finish lost): 11,350 -> 11,434 B.
    // + 112 (hostile71, 2026-12-07): the scan before every payload's parse skims spans of 16,384 characters for a long name's content instead of reading every string (an ordinary 1 MB whole response: 35.5 % of JSON.parse's time -> 1.5 %, bench/hostile-long-names.ts), its exact per-string scan kept for a stretch that could be JSON's own: Gemini 8,655 -> 8,796 B with the long names of its own (longMemberNameKey).
    // + 8 (lead71, 2026-12-07): a long member name that is no JSON string (a raw line feed, a bad escape) refused as JSON.parse refuses the text, where the replacement let it by
    8 +
    112 +
    96 +
    320 +
    9 * KiB +
    16 +
    32 +
    32 +
    16 +
    72 +
    300 +
    40 +
    8 +
    16 +
    24 +
    24 +
    48 +
    200 +
    88 +
    80 +
    48 +
    104 +
    8 +
    16 +
    152 +
    128 +
    192 +
    8 +
    16 +
    40 +
    8 + // + 8 (workerleft, 2026-12-06): an image that stops with no bytes is a block-failed error too (it was dropped silently): 11,027 -> 11,038 B
    32 + // + 32 (providers, 2026-12-06): an image a delta's `error` failed, or whose bytes are not base64, is an in-band block-failed error with the ErrorBlock as its data (it was a provider-error that failed the turn, or a malformed-payload that lost the open calls), one helper for the three ways an image is left out, and a whole Converse response's ImageBlock.error read: 10,995 -> 11,027 B
    72 + // + 72 (review68, 2026-12-06): an image past maxArgumentsLength is left out with an in-band arguments-too-large error and the turn goes on (it ended the stream: in the Worker, most generated PNGs), the image's handling in a module of its own (bedrock-images.ts, to keep bedrock-converse.ts within 300 lines): 10,928 -> 10,995 B
    8 +
    8, // + 8 (wire76, 2026-12-07): an `input_json_delta` of a block that started as no call (a content block type added later) is dropped, not a call with no name, in the Anthropic decoder it reads InvokeModel with: 11,644 -> 11,654 B; + 8 (library-options, 2026-12-06): on fbd714e1's image blocks the chain's gzip is 4 B past the sum of the two changes: 10,924 -> 10,928 B; + 40 (library-options, 2026-12-06): the error of a call that lost a fragment names it (lostFragment: its id and tool name): 10,692 -> 10,726 B; + 16 (library-options, 2026-12-06): the framings' cores, AnthropicDecoder and ToolCallAccumulatorCore check their option names, the chain giving each stage its own options (pickOptions), and BedrockDeltaStream hands InvokeModel's decoder the limits without its plug-in: 10,671 -> 10,692 B; + 8 (library-options, 2026-12-06): the finish event built in a module of its own (accumulate/finish-event.ts), the accumulator core split along it: 10,658 -> 10,671 B; + 192 (providers-2026): ConverseStream's image blocks (ImageBlockStart, ImageBlockDelta's base64 bytes or error) kept as Converse's image block for the next turn, bounded by maxArgumentsLength with the server tools' results, an image delta's error a provider error (they were dropped): 10,658 -> 10,856 B; + 128 (streams67): + 128 (streams67): a call a skipped payload may have cut (see `chain`): 10,536 -> 10,660 B; + 152 (newcomer66): the stages check their option names (see `chain`): 10,344 -> 10,536 B; + 16 (perf63): a usage without JSON's round trip (see `chain`); + 8 (stopped-snapshots, 2026-12-06): a call completed after a provider error is `stopped` by the state's `providerErrorSeen`, so a restored snapshot marks it too (10,362 -> 10,371 B); + 104 (repeated-ids, 2026-12-06): a second call under an earlier call's id is a call of its own under that id with a suffix (`call_1_2`), for every provider, in the accumulator (Anthropic's own check that failed the body gone; the suffix search 8 to 24 B more than failing) (10,257 -> 10,362 B); + 48 (stop-fixes): see `chain`: 10,211 -> 10,259 B; + 80 (lib-faults): see `chain`: 10,132 -> 10,211 B; + 88: a refusal's fallback fields, in the Anthropic decoder it reads InvokeModel with (see `anthropicChain`, round-trip): 10,041 -> 10,132 B; + 200: final arguments settled (see `chain`, repairnames): 9,840 -> 10,041 B; + 48: a repeated `tool_use` id fails the body, in the Anthropic decoder it reads InvokeModel with (see `anthropicChain`, faults61): 9,787 -> 9,837 B; + 24: a displaced call cut (see `chain`, fault-review): 9,772 -> 9,790 B; + 24: a bare `error` payload is the provider's error, in the Anthropic decoder it reads InvokeModel with (see `anthropicChain`, fault-review): 9,740 -> 9,770 B; + 16: fast readers' fragments of their own (see `chain`): 9,730 -> 9,740 B; + 8: a failed turn's finish and one choice's finish (see `chain`): 9,718 -> 9,730 B; + 300: Anthropic's `input_json_delta` read faster (see `anthropicChain`); + 72: see `anthropicChain`; + 16: a provider's error fails the finish (see `chain`): 9,288 -> 9,303 B; + 16: moderation results (see `chain`); + 32, + 32: see `anthropicChain`
  // Gemini Interactions: its built-in tools' steps as provider-executed calls with their results
  // (gemini-interactions-server-steps.ts, issue 34): 7,087 -> 7,741 B.
  interactionsChain:
    // + 320 (hostile, 2026-12-06): a call's arguments or a provider's payload with a member name past 16,383 characters is never parsed (`long-member-name`, `parseJsonText` in the decoders, the partial parser's key check): V8 kept such names interned, each call's compared with all those before, across requests (bench/hostile-long-names.ts: 1,600 calls 45.5 s -> 3.0 s): 9,088 -> 9,395 B.
    // + 96 (longnames, 2026-12-06): a provider's payload with a member name past 16,383 characters is read with a reserved key in place of each (`parseJsonText`), and arguments holding that key are the `long-member-name` call, where the whole payload was skipped (its other calls, text, usage and finish lost): 9,395 -> 9,470 B.
    // + 112 (hostile71, 2026-12-07): the scan before every payload's parse skims spans of 16,384 characters for a long name's content instead of reading every string (an ordinary 1 MB whole response: 35.5 % of JSON.parse's time -> 1.5 %, bench/hostile-long-names.ts), its exact per-string scan kept for a stretch that could be JSON's own: Gemini 8,655 -> 8,796 B with the long names of its own (longMemberNameKey).
    // + 8 (lead71, 2026-12-07): a long member name that is no JSON string (a raw line feed, a bad escape) refused as JSON.parse refuses the text, where the replacement let it by
    8 +
    112 +
    96 +
    320 +
    7.75 * KiB +
    72 +
    72 +
    56 +
    128 +
    8 +
    8 +
    184 +
    72 +
    160 +
    48 +
    32 +
    112 +
    128 +
    8 +
    8 +
    32 +
    24 +
    8, // + 8 (faults, 2026-12-07): the chain ends at the provider's own end or an in-stream error that ends its stream, the body cancelled there (a `done` after Anthropic's, Bedrock's, Gemini's, Ollama's and Gemini Interactions' errors; ChainPump stops reading once the chain closed): 9,624 -> 9,627 B; + 24 (tenk, 2026-12-06): the SSE framing finds a blank line at an LF without a search (one `indexOf` of three per event on a 10 KB call's 2,962 events): 9,064 -> 9,081 B; + 32 (library-options, 2026-12-06): the error of a call that lost a fragment names it (`lostFragment`: its id and tool name), where one constant said "this call": 9,028 -> 9,058 B; + 8 (library-options, 2026-12-06): the framings' cores, AnthropicDecoder and ToolCallAccumulatorCore check their option names, the chain giving each stage its own options (`pickOptions`): 9,019 -> 9,028 B; + 8 (library-options, 2026-12-06): the finish event built in a module of its own (accumulate/finish-event.ts), the accumulator core split along it: 9,009 -> 9,019 B; + 128 (streams67): a call a skipped payload may have cut (see `chain`): 8,886 -> 9,009 B; + 112 (wire67, 2026-12-06): a terminal `interaction.status_update` (any status but `in_progress`, `queued`, `idle`) the body or the SDK's stream ends on completes the answer as `interaction.completed` does, where the stream ended `input-ended` with its calls discarded: 8,738 -> 8,851 B before types67, 8,886 B with it; + 32 (types67, 2026-12-06): GeminiInteractionsDeltaStream takes the provider stages' limits (it took no argument and left `maxArgumentsLength` at its default) and checks their names, and see `chain`: 8,738 -> 8,772 B; + 48 (wire67, 2026-12-06): a call a dropped hop left open is withdrawn when the hop `@google/genai` resumed from a checkpoint opens, never completed by that hop's `interaction.completed`: 8,689 -> 8,738 B; + 160 (newcomer66): the stages check their option names (see `chain`): 150 B more (-> 8,689 B); + 72 (wire66, 2026-12-06): an `interaction.status_update`'s `usage` (the interaction's so far) read, and a hop `@google/genai` opened from a status update's checkpoint after a drop (another interaction's `interaction.created`, no `interaction.completed` before it) the next hop of the same answer, its usage added to the dropped hop's: 8,456 -> 8,534 B; + 184 (wire65, 2026-12-06): `@google/genai`'s own stream of a decode it continued (`automatic_continuation`, its default: every hop's events back to back) is one answer, where the first hop's `requires_continuation` ended it and the later hops' text and calls were dropped: that finish held until the next event or the end, each hop's step indexes past the earlier hops', its usage added to theirs (gemini-interactions-hops.ts; a usage sum over the counts it has, no list of them): 8,275 -> 8,456 B (a failed interaction's `errors[]` read and the `idle` status before it, within the budget: 8,253 -> 8,275 B); + 8 (perf63): a usage without JSON's round trip (see `chain`); + 8 (stopped-snapshots, 2026-12-06): a call completed after a provider error is `stopped` by the state's `providerErrorSeen`, so a restored snapshot marks it too (8,252 -> 8,264 B); + 128 (repeated-ids, 2026-12-06): a second call under an earlier call's id is a call of its own under that id with a suffix (`call_1_2`), for every provider, in the accumulator (Anthropic's own check that failed the body gone; the suffix search 8 to 24 B more than failing) (8,126 -> 8,252 B); + 56 (stop-fixes): see `chain`: 8,077 -> 8,129 B; + 72 (lib-faults): see `chain`: 8,004 -> 8,077 B; + 72: final arguments settled (see `chain`, repairnames): 7,798 -> 8,004 B
  // Raised from 2.5 KiB in issue 34: OpenAI Responses' stage, the largest, reads MCP approval
  // requests (`mcp_approval_request` as an `approval-request`, its arguments parsed: 2,495 -> 2,618 B),
  // then bounds them as calls (`boundedApprovalRequest`: counted against `maxToolCalls`, arguments
  // against `maxArgumentsLength`, with the accumulator's errors: 2,780 -> 2,862 B).
  // Then to 3.125 KiB, still in issue 34: the same provider-executed calls (2,932 -> 3,095 B).
  // Then by 16 B: a refusal (`response.refusal.done`) kept as a `refusal` field part with its
  // message's id, for the next turn's `refusal` content part, not as text (3,189 -> 3,213 B).
  // Then by 80 B more: that refusal kept from its deltas when its `.done` never came (a stream cut
  // before it), as `responsesChain` says (3,215 -> 3,290 B).
  // Then by 40 B: the Bedrock stage brings the Anthropic decoder, which counts a compaction's tokens
  // (see `anthropicChain`): 3,276 -> 3,331 B.
  extraProvider: 3.125 * KiB + 16 + 96 + 40 + 232 + 24 + 56 + 80 + 176 + 8 + 64 + 32 + 16 + 8 + 96 + 16 + 88 + 16 + 40, // + 40 (review 77, reviewer77): see `responsesChain`: the Responses stage's 4,262 -> 4,300 B; + 16 (review 77, whole77): see `responsesChain`: the Responses stage's 4,242 -> 4,262 B; + 88 (wire77, 2026-12-07): OpenAI Responses' text read from the events that end a message when no delta streamed it (see `responsesChain`): the Responses stage's 4,160 -> 4,242 B; + 16 (wire76, 2026-12-07): an `input_json_delta` of a block that started as no call dropped (see `bedrockChain`): the Bedrock stage's 4,141 -> 4,157 B; + 8 (shapes37, 2026-12-06): OpenAI Chat's first call delta from one literal moves the Bedrock stage's share of an OpenAI chain by a byte (4,024 -> 4,025 B); + 16 (workerleft, 2026-12-06): an image with no bytes is block-failed (see `bedrockChain`): the Bedrock stage's 4,003 -> 4,022 B; + 32 (providers, 2026-12-06): an image's failure in-band, block-failed (see `bedrockChain`): the Bedrock stage's 3,969 -> 3,999 B; + 64 (review68): an image past maxArgumentsLength left out, the turn going on (see `bedrockChain`): the Bedrock stage's 3,907 -> 3,969 B; + 8 (library-options, 2026-12-06): BedrockDeltaStream hands InvokeModel's decoder the limits without its converseCitations, on fbd714e1's image blocks: the Bedrock stage's 3,904 -> 3,907 B; + 176: ConverseStream's image blocks (see `bedrockChain`, providers-2026): the Bedrock stage's 3,706 -> 3,899 B; + 80: a refusal's fallback fields (see `anthropicChain`, round-trip): the Bedrock stage's 3,644 -> 3,723 B; + 56: a repeated `tool_use` id fails the body (see `anthropicChain`, faults61): the Bedrock stage's 3,586 -> 3,644 B; + 24: a bare `error` payload is the provider's error (see `anthropicChain`, fault-review): the Responses stage's 3,560 -> 3,587 B; + 232: OpenAI Responses' delta events read faster (see `responsesChain`); + 16 (hostile71, 2026-12-07): the long-name scan's skim (see `chain`): the Bedrock stage's 4,032 -> 4,044 B; + 96 (msgpath, 2026-12-07): Anthropic's `text_delta` read without `JSON.parse`, padded deltas too (see `anthropicChain`): the Bedrock stage's 4,047 -> 4,137 B
  // + 64 (schema-refs, 2026-12-05): the draft the root's `$schema` declares is read (3 to 7, 2019-09
  // or 2020-12, not only "7 or older"), so a boolean exclusiveMinimum/Maximum is draft 4's bound only
  // where no later draft is declared (under 2020-12 it made a valid 0 fail): 14,666 -> 14,732 B.
  // + 32 (schema-refs): under draft 4 to 7 a `$ref`'s siblings are ignored, as those drafts say
  // (they applied, rejecting valid values): 14,735 -> 14,760 B.
  // + 656 (schema-unevaluated, 2026-12-05): unevaluatedProperties/unevaluatedItems are checked (they
  // were ignored, so a schema closing an object composed with allOf or $ref accepted any key): the
  // marks of what each schema in place evaluated (kept per value for a shared one, read once), every
  // anyOf branch walked for its keys, the keywords read and folded into additionalProperties/items
  // where nothing applies in place (which the early check then decides): 14,760 -> 15,395 B.
  // + 360 (schema-dup-budget, 2026-12-05): a member name repeated in one object is a violation
  // of both checks (the early one read the first value, `JSON.parse` keeps the last, so a call the
  // final check accepted was flagged, and cancelled with abortOnViolation): a one-pass scan of the
  // text for the final check (src/json/repeated-name.ts, about 330 B), a key seen twice for the
  // early one: 15,395 -> 15,748 B.
  // + 640 (schema-refs): `$ref`s by anchor (`$anchor`, `$dynamicAnchor`, draft 6/7's
  // `$id: "#name"`) and by the URI of an `$id` the schema holds, resolved with the URL API
  // (src/schema/schema-resources.ts: the document's resources and anchors, found once per schema
  // when a `$ref` first names one, bounded by the compilation's steps); both accepted anything, and
  // checkToolSchema refused them (a 400 for valid tools): 15,748 -> 16,407 B.
  // + 48 (schema-messages, 2026-12-05): a check stopped by depth says so, and one the response's
  // pool cut short names the steps it had (both named the call's whole budget): 16,407 -> 16,464 B.
  // + 48 (schema-uri-cap, 2026-12-05): URIs and anchor names past 2,048 characters name nothing,
  // and checkToolSchema refuses such an `$id` or anchor (V8 hashes a string past 16,383 characters
  // by its length: 2,000 anchors under a 17,000-character `$id` took 3.6 s, past the compilation's
  // bound); each anchor a step: 16,464 -> 16,515 B.
  // + 56 (std-names, 2026-12-05): a tool given by a validator gets no early violation for a repeated
  // member name (its validator judges the last value: the early check cancelled calls it accepts):
  // 16,515 -> 16,570 B.
  // + 24 (idrules, 2026-12-05): each draft's identifier keywords read from one list (draft 4 to 7
  // have no `$anchor` or `$dynamicAnchor`, and no identifier beside a `$ref`: both named schemas;
  // an `$id` after a URI, `a.json#name`, names the anchor too, its name was dropped; `$id: "#"` is
  // the resource it resolves to): 16,570 -> 16,589 B.
  // + 617 (dynref, 2026-12-05): `$dynamicRef` and `$recursiveRef` followed through the dynamic scope
  // (they accepted anything, so a generic list or tree and every schema extending a base by
  // `$dynamicAnchor` validated nothing there; 35 cases of the JSON Schema Test Suite were skipped):
  // the document's dynamic anchors by name, each resource's compiled, a synthetic node resolved at
  // check time, scopes built once per resource entered and capped at 64, a shared schema's verdict
  // kept per scope; the early check's `propertyNames` accepts them: 16,589 -> 17,206 B.
  // + 24 (schema-linear, 2026-12-05): one node per `$dynamicAnchor` name holds the schemas that bind
  // it, for every `$dynamicRef` of the name (each ref linked every such schema: 2,000 refs to 2,000
  // anchors, a 215 KB schema, took 17 s of checkToolSchema): 17,214 -> 17,234 B.
  // + 48 (schema-linear, 2026-12-05): a `$ref` that is a fragment alone (`#name`) is looked up in
  // its base's URI without parsing a URL, and anchors are kept by URI then name (each look-up
  // built and hashed a `uri#name` key): each such ref cost its base URI's length, so 2,500 refs
  // under a 2 KB `$id` (56 KB) were refused as past the compilation's steps: 17,234 -> 17,278 B.
  // + 235 (schema-drafts, 2026-12-05): each keyword read as the draft the root's `$schema` declares
  // has it (2019-09 and 2020-12 were one dialect, and every draft read every other's keywords:
  // `prefixItems` under draft 7, `dependencies` under 2020-12, `$recursiveRef` under 2020-12...),
  // draft 4's identifier `id` (read as `$id`), a `$dynamicRef`'s fragment percent-decoded: one
  // table of the drafts each keyword is in and a view of a schema's keywords its draft reads, which
  // also replaced the draft 4 to 7 `$ref` special cases of the resource search: 17,278 -> 17,513 B.
  // + 152 (schemas63, 2026-12-06): checkToolSchema's fixed cost per subschema: a schema's draft
  // view is itself when its draft has all its keywords (it was a copy per schema, three times a
  // check, where `$schema` is declared), its identifiers read without a list or a view when it has
  // none, and a `$ref` by URI located once for the walk and the compilation (it was parsed twice):
  // 17,516 -> 17,661 B.
  // + 28 (schemas-hostile, 2026-12-06): a `$ref`'s JSON Pointer keys kept for the next ask (the walk,
  // the resource search and the compilation each asked 3 to 5 times in a row, each decoding and
  // splitting it again; 9,000 `$ref`s, 260 KB, took 1.2 to 1.5 times the CPU): 17,661 -> 17,688 B.
  // + 64 (schemas65, 2026-12-06): boolean schemas counted and charged by the compilation, every
  // schema past its limits one shared node (200,000 `true`s, 1 MB, compiled to 150 MB of nodes for
  // no step of the budget), a JSON Pointer's `~` not followed by 0 or 1 no key, and the draft
  // spans of the annotations checkToolSchema now checks: 17,688 -> 17,747 B.
  // + 40 (uri65, 2026-12-06): a stack that runs out while compiling is the nesting limit (a cold
  // isolate accepted the schema unread), and an `$id` with a character no URI reference has is
  // refused before a URL parser is asked (Chromium's read `http://exa mple.com/`, Node's did not):
  // 17,747 -> 17,800 B.
  // + 512 (schemas66, 2026-12-06): a schema's identifiers (`$id`, a `$ref` by URI) resolved as RFC
  // 3986 §5.2 says in the library's own code, not by the runtime's URL parser: Deno's refused
  // `http://xn--a.com/` (the others read it), Chromium's kept `file://localhost/` (the others read
  // `file:///`), so one schema's `$ref`s resolved in one runtime and were refused in another:
  // 17,800 -> 18,316 B.
  // + 24 (schemas67, 2026-12-06): a root's `$schema` names a draft only as that draft's exact
  // metaschema URI (an unanchored regex read `https://evil.example/json-schema.org/draft-07/`,
  // `draft-05` and `draft/2019-12` as drafts, ignoring a `$ref`'s siblings): 18,316 -> 18,337 B.
  // + 1,080 (schemas67, 2026-12-06): a property escape (`\p{L}`) that meets a code point the
  // runtimes' Unicode tables disagree on (Deno 2.9's are Unicode 16, Node's, workerd's and
  // Chromium's 17: 5,533 code points differ, measured over every escape) stops the check naming
  // it, where one runtime matched and another did not; the differing ranges pinned
  // (src/schema/pattern/unicode-drift.ts, 158 ranges read into a bit per code point, some 740 B of it), and the scripts only
  // Unicode 17 names refused: 18,337 -> 19,396 B.
  // + 64 (schema-numbers, 2026-12-06): `1e400` (Infinity once parsed) is no `number` nor `integer`
  // in both checks, as Ajv's default `strictNumbers` says (it passed `number`), and an `enum` value
  // past a double is named as read, not as JSON.stringify's `null`: 19,396 -> 19,479 B.
  // + 240 (schemas, 2026-12-06): a string past 16,383 characters (which V8 hashes by its length
  // alone) kept in the checks' sets by the ids of its pieces (src/schema/text-keys.ts): an `enum`,
  // `required` or `uniqueItems` of many such strings was quadratic: 19,479 -> 19,718 B. + 88
  // (schemas): the early check looks a long streamed key up in `properties` by its pieces
  // (`propertyOf`: keys x branches x long names, uncharged): 19,718 -> 19,803 B.
  schemaPlugin:
    // + 32 (hostile, 2026-12-06): the early check's partial parser stops at a key past 16,383 characters (`long-member-name`), never setting it on an object, where V8 would keep it interned: 19,812 -> 19,847 B.
    32 +
    14.3 * KiB +
    128 +
    656 +
    360 +
    640 +
    48 +
    48 +
    56 +
    24 +
    617 +
    24 +
    48 +
    235 +
    152 +
    28 +
    64 +
    40 +
    512 +
    24 +
    1080 +
    64 +
    240 +
    88,
  // `for await` over streamToolCalls reads the chain's events without a stream read each (issue
  // 37, `EventChannel`): about 630 B in each provider's (Bedrock 16,037 -> 16,665 B). Then the
  // non-SSE providers' without the SSE framing (Bedrock 16,665 -> 15,102 B): 15.75 KiB. Then
  // 12.75 KiB, in issue 36's round: the incremental parser and the Standard Schema step as
  // plug-ins on the subpaths, the library's own SSE framing in place of eventsource-parser, the
  // SDK objects' writer only with the protocols that write objects (the largest, Bedrock's,
  // 12,824 B; OpenAI's 12,655, Responses' 12,467).
  // 10 KiB, issue 36's goal, once what only some apps need became plug-ins they import: the repair
  // (`repair: repairJson`, with its error-position scan), the timings (`toolCallTimings`), the
  // NDJSON of an SDK's `toReadableStream()` (`framing: NdjsonDecoder`), Bedrock's InvokeModel
  // (`invokeModel: AnthropicDecoder`), and the writer of an SDK's objects by `JSON.stringify`'s
  // rules (the main entry's); each protocol reads its provider's own framing alone. From 12,974 B
  // (Bedrock's) and 12,796 (OpenAI's) at 0e874b1 to 10,001 and 10,259 (docs/performance.md).
  // OpenAI Responses' had 10.25 KiB until its built-in tools' items became the `builtInCalls`
  // plug-in (`ResponsesBuiltInCalls`): 10,373 -> 9,688 B. Issue 34's notes of a turn's order (about
  // 240 B) took every subpath to 10.25 KiB for a while (OpenAI Chat's 10,161 -> 10,411 B); back to
  // 10 KiB once what only a turn of blocks holds (its order, approval requests, withdrawn calls, calls
  // the provider ran alone) became the `turnBlocks` plug-in, which only the protocols of such turns
  // name (src/shared/turn-blocks.ts), and the pump lost what only the batches use: OpenAI Chat's
  // 10,419 -> 10,129 B at 5d54d90's tree, OpenAI Responses' 10,208 -> 10,207 (it holds the plug-in
  // and its hooks). The core chains hold the plug-in (ToolCallAccumulatorStream's default) and its
  // hooks: 17 to 37 B more (OpenAI Chat's 7,757 -> 7,788, OpenAI Responses' 8,654 -> 8,691).
  // Then each protocol's plug-in became only the parts its decoder needs (Gemini's the order alone,
  // no approvals for Anthropic's, Bedrock's and Gemini Interactions', no withdrawn calls for
  // Responses') and the accumulator built its finish and kept its text itself (no helper modules):
  // every subpath at least 120 B under (Gemini's 10,234 -> 10,042, Responses' 10,207 -> 10,120, OpenAI
  // Chat's 10,146 -> 10,078), the core chains 24 to 49 B smaller (OpenAI Chat's 7,805 -> 7,770).
  // Issue 34's read faults (a body whose reader fails gives first what the body cut there gives)
  // took OpenAI Responses' to 10,247 B for a moment; its decoder reads an item's type once: 10,234 B.
  // + 8 B in the moderation-results round (see `chain`): OpenAI Responses' 10,207 -> 10,242.
  // + 32 B in the continuation round (see `chain`): Gemini's 10,226 -> 10,275 (a long decode's
  // `continuationToken`), the others 8 to 10 B each for the accumulator's key (Anthropic's 10,239 -> 10,248).
  // + 64 B in the wire-2026 round (see `anthropicChain`): Anthropic's 10,291 -> 10,362, a
  // compaction's billed tokens counted in the usage.
  // + 8 B in the repair-paths round (2026-12-05): the call's error is one verdict on both paths (the
  // repair's, else the parser's or the scan's: one failure field, not two offsets) and the repair is
  // given `maxDepth`: Gemini's 10,277 -> 10,284, the others 3 to 9 B each (the core chains 0 to 1 B).
  // + 192 in issue 37 (perf-responses): OpenAI Responses' delta events read faster (see `responsesChain`).
  // + 32: see `chain` (repair-paths): Anthropic's 10,362 -> 10,389 B
  streamToolCalls:
    // + 48 (review 77, reviewer77): see `responsesChain`: 13,031 -> 13,076 B
    48 +
    // + 24 (review 77, whole77): see `responsesChain`: 13,001 -> 13,031 B
    24 +
    // + 224 (wire77, 2026-12-07): OpenAI Responses' text read from the events that end a message when no delta streamed it (see `responsesChain`): 12,784 -> 13,001 B
    224 +
    // + 40 (chat76, 2026-12-07): the chain of events made by one function (`eventChain`) that makes either its stream or, for the main entry's `readToolCalls`, a reader with no stream (a non-streaming answer's chain, one native stream fewer a response): 12,742 -> 12,779 B
    40 +
    // + 8 (faults75, 2026-12-07): OpenAI Responses' bare `{"error": ...}` (vLLM's, SGLang's: no `type`) ends the stream, a `done` after it (see `responsesChain`): 12,732 -> 12,742 B
    8 +
    // + 168 (respath, 2026-12-07): OpenAI Responses' delta events in OpenAI's current key order read fast (see `responsesChain`): 12,415 -> 12,707 B
    168 +
    // + 72 (msgpath, 2026-12-07): Anthropic's `text_delta` read without `JSON.parse` as its `input_json_delta` is, and either with white space before or between its closing braces (Anthropic pads them so; the fast path read none of them): `JSON.parse` 110,000 instructions less a `/v1/messages` request: Anthropic's 12,529 -> 12,614 B, under the + 168 below (Responses' 12,707 B is the largest)
    0 +
    // + 320 (hostile, 2026-12-06): a call's arguments or a provider's payload with a member name past 16,383 characters is never parsed (`long-member-name`, `parseJsonText` in the decoders, the partial parser's key check): V8 kept such names interned, each call's compared with all those before, across requests (bench/hostile-long-names.ts: 1,600 calls 45.5 s -> 3.0 s): about 300 B gzipped in each chain.
    // + 96 (longnames, 2026-12-06): a provider's payload with a member name past 16,383 characters is read with a reserved key in place of each (`parseJsonText`), and arguments holding that key are the `long-member-name` call, where the whole payload was skipped (its other calls, text, usage and finish lost): Anthropic's 12,315 -> 12,395 B.
    // + 112 (hostile71, 2026-12-07): the scan before every payload's parse skims spans of 16,384 characters for a long name's content instead of reading every string (an ordinary 1 MB whole response: 35.5 % of JSON.parse's time -> 1.5 %, bench/hostile-long-names.ts), its exact per-string scan kept for a stretch that could be JSON's own: Gemini 8,655 -> 8,796 B with the long names of its own (longMemberNameKey).
    // + 8 (lead71, 2026-12-07): a long member name that is no JSON string (a raw line feed, a bad escape) refused as JSON.parse refuses the text, where the replacement let it by
    8 +
    112 +
    96 +
    320 +
    10 * KiB +
    // + 16 (tenk, 2026-12-06): the SSE framing finds a blank line at an LF without a search (one `indexOf` of three per event on a 10 KB call's 2,962 events): Anthropic's 11,988 -> 12,006 B
    16 +
    8 +
    32 +
    16 +
    8 +
    64 +
    192 +
    112 +
    32 +
    8 +
    16 +
    24 +
    8 +
    16 +
    8 +
    32 +
    8 +
    208 +
    96 +
    80 +
    40 +
    104 +
    8 +
    16 +
    8 +
    208 +
    88 +
    128 +
    152 +
    32 +
    24, // + 24 (faults, 2026-12-07): the chain ends at the provider's own end or an in-stream error that ends its stream, the body cancelled there (a `done` after Anthropic's, Bedrock's, Gemini's, Ollama's and Gemini Interactions' errors; ChainPump stops reading once the chain closed): Anthropic's to 12,636 B on main's ce718bc6; + 32 (library-options, 2026-12-06): the error of a call that lost a fragment names it (`lostFragment`: its id and tool name), where one constant said "this call": Anthropic's 11,955 -> 11,988 B; + 152 (library-options, 2026-12-06): the framings' cores, AnthropicDecoder and ToolCallAccumulatorCore check their option names, the chain giving each stage its own options (`pickOptions`): the three option tables, the picking and the cores' checks in every provider's (OpenAI's 11,393 -> 11,521 B, Anthropic's 11,803 -> 11,955); + 128 (streams67): a call a skipped payload may have cut (see `chain`): Anthropic's 11,678 -> 11,802 B; + 88 (streams65, 2026-12-06): a complete call that a step after the accumulator threw on (an application's clock under `toolCallTimings`, its own `eventStep`) is listed on the `abort`'s `discarded`, not lost (FramedChain's `#take`, only where steps are given): Anthropic's 11,584 -> 11,668 B, the others 86 to 103 B; + 208 (newcomer65, 2026-12-06): an option name streamToolCalls does not know (a JavaScript caller's typo, `maxArgumentLength`) is a TypeError naming it and the 26 options there are, not ignored with the default in force: the names in every bundle (Anthropic's 11,383 -> 11,584 B, OpenAI Chat's 10,952 -> 11,155); + 8 (newcomer, 2026-12-06): the SSE framing's error for a JSON body names a request sent without `stream: true`, a stranger's commonest first mistake (Anthropic's 11,371 -> 11,383 B); + 16 (perf63): a usage without JSON's round trip (see `chain`); + 8 (stopped-snapshots, 2026-12-06): a call completed after a provider error is `stopped` by the state's `providerErrorSeen`, so a restored snapshot marks it too (Anthropic's 11,348 -> 11,357 B); + 104 (repeated-ids, 2026-12-06): a second call under an earlier call's id is a call of its own under that id with a suffix (`call_1_2`), for every provider, in the accumulator (Anthropic's own check that failed the body gone; the suffix search 8 to 24 B more than failing) (see `chain`: Anthropic's 11,238 -> 11,348 B); + 40 (stop-fixes): see `chain`: Anthropic's 11,203 -> 11,243 B; + 80 (lib-faults): see `chain`: Anthropic's 11,125 -> 11,203 B; + 96: a refusal's fallback fields (see `anthropicChain`, round-trip): Anthropic's 11,032 -> 11,125 B; + 208: final arguments settled (see `chain`, repairnames): Anthropic's 10,819 -> 11,032 B; + 8: the validator is given a repaired call's repaired text, where a repeated member name is (repairnames): Anthropic's 10,816 -> 10,819 B; + 32: a repeated `tool_use` id fails the body (see `anthropicChain`, faults61): Anthropic's 10,766 -> 10,816 B; + 8: a tool input fragment of no open block passed on (see `anthropicChain`, fault-review): Anthropic's 10,776 -> 10,779 B; + 16: a displaced call cut (see `chain`, fault-review): Anthropic's 10,753 -> 10,772 B; + 8: see `anthropicChain`'s held call (fault-review): Anthropic's 10,751 -> 10,753 B; + 24: a bare `error` payload is the provider's error (see `anthropicChain`, fault-review): Anthropic's 10,721 -> 10,751 B; + 16: fast readers' fragments of their own (see `chain`): Anthropic's 10,711 -> 10,723 B, the others 6 to 12 B; + 8: a failed turn's finish and one choice's finish (see `chain`): Anthropic's 10,702 -> 10,711 B; + 112: Anthropic's `input_json_delta` read faster (see `anthropicChain`); + 16: a provider's error fails the finish (see `chain`): Gemini's 10,277 -> 10,294 B
};

/** The JSON Schema plug-in as a user passes it to `streamToolCalls`: `jsonSchema`, from `tool-call-stream/schema`. */
const SCHEMA_PLUGIN = "JSON Schema plug-in";

/**
 * Each provider subpath: its framing and provider stages, the source files that only it may
 * bring in, the files of another provider it may share (Bedrock reads Claude's InvokeModel events
 * with the Anthropic decoder), and its chain's budget.
 */
const PROVIDERS = {
  openai: {
    stage: "OpenAIChatDeltaStream",
    own: ["providers/openai-chat/openai-chat-delta-stream"],
    budget: BUDGET.openaiChain,
  },
  anthropic: {
    stage: "AnthropicDeltaStream",
    own: ["providers/anthropic/anthropic-delta-stream"],
    budget: BUDGET.anthropicChain,
  },
  gemini: {
    stage: "GeminiDeltaStream",
    own: ["providers/gemini/gemini-delta-stream", "providers/gemini/gemini-partial-args"],
    // + 48 (faults75, 2026-12-07): the chunk where every candidate has finished, with the usage, ends the
    // response (a `done`: Gemini sends no end marker), so a body held open after it is cancelled: 8,816 -> 8,863 B
    // + 8 (wire76, 2026-12-07): the URL context tool's `urlContextMetadata` kept for the app with the grounding: 8,863 -> 8,871 B
    budget: BUDGET.chain + 48 + 8,
  },
  "openai-responses": {
    stage: "OpenAIResponsesDeltaStream",
    own: ["providers/openai-responses/openai-responses-delta-stream", "providers/openai-responses/sequence-reorderer"],
    budget: BUDGET.responsesChain,
  },
  bedrock: {
    framing: "AwsEventStreamDecoderStream",
    stage: "BedrockDeltaStream",
    own: [
      "providers/bedrock/bedrock-delta-stream",
      "providers/bedrock/bedrock-converse",
      "framing/aws-event-stream-decoder-stream",
      "framing/aws-event-stream-headers",
      "framing/crc32",
    ],
    shares: ["providers/anthropic/anthropic-delta-stream"],
    budget: BUDGET.bedrockChain,
  },
  cohere: { stage: "CohereDeltaStream", own: ["providers/cohere/cohere-delta-stream"] },
  "gemini-interactions": {
    stage: "GeminiInteractionsDeltaStream",
    own: [
      "providers/gemini-interactions/gemini-interactions-delta-stream",
      "providers/gemini-interactions/gemini-interactions-server-steps",
      "providers/gemini-interactions/gemini-interactions-hops",
    ],
    budget: BUDGET.interactionsChain,
  },
  ollama: {
    framing: "NdjsonDecoderStream",
    stage: "OllamaDeltaStream",
    // The NDJSON framing is not Ollama's alone: OpenAI's and Anthropic's SseOrNdjsonFraming reads an SDK's
    // toReadableStream() NDJSON with it.
    own: ["providers/ollama/ollama-delta-stream"],
  },
};
/** Files that select between providers, which no single-provider bundle needs. */
const MULTI_PROVIDER = [
  "providers/registry",
  "providers/provider-detect-stream",
  "providers/messages",
  "providers/finish-reason",
];

const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const packageArgument = process.argv.indexOf("--package");
/** The consumer project the installed package is measured in, or undefined to measure this checkout's dist/. */
const project = packageArgument === -1 ? undefined : process.argv[packageArgument + 1];
/** Where the built modules are, as esbuild's metafile names them (relative to its working directory). */
const distPrefix = project === undefined ? "dist/" : `node_modules/${pkg.name}/dist/`;

/** Resolves `tool-call-stream/<subpath>` through the package's own exports map, as a consumer's bundler does. */
const selfReference = {
  name: "self-reference",
  setup(build) {
    build.onResolve({ filter: new RegExp(`^${pkg.name}(/|$)`) }, (args) => {
      const subpath = `.${args.path.slice(pkg.name.length)}`;
      const entry = pkg.exports[subpath];
      if (!entry) return { errors: [{ text: `${args.path} is not exported by package.json` }] };
      return { path: join(root, entry.default) };
    });
  },
};

async function measure(source, { external = [] } = {}) {
  const result = await esbuild.build({
    external,
    stdin: { contents: source, resolveDir: project ?? root, loader: "js", sourcefile: "entry.js" },
    bundle: true,
    minify: true,
    format: "esm",
    platform: "browser",
    target: "es2022",
    write: false,
    metafile: true,
    logLevel: "silent",
    absWorkingDir: project ?? root,
    plugins: project === undefined ? [selfReference] : [],
  });
  const code = result.outputFiles[0].contents;
  const inputs = Object.entries(Object.values(result.metafile.outputs)[0].inputs).map(([path, input]) => ({
    path,
    bytes: input.bytesInOutput,
  }));
  return { minified: code.length, gzipped: gzipSync(code, { level: 9 }).length, inputs };
}

function chainSource(provider) {
  const { stage, framing = "SSEDecoderStream" } = PROVIDERS[provider];
  return `export { ${framing}, ${stage}, ToolCallAccumulatorStream } from "${pkg.name}/${provider}";\n`;
}

if (project === undefined ? !existsSync(join(root, "dist", "index.js")) : !existsSync(join(project, distPrefix))) {
  console.error(
    project === undefined
      ? "size: dist/ is missing; run `npm run build` first."
      : `size: ${project} has no ${distPrefix}`,
  );
  process.exit(1);
}

const rows = [];
const failures = [];
const chains = {};
for (const provider of Object.keys(PROVIDERS)) {
  chains[provider] = await measure(chainSource(provider));
  rows.push({
    what: `core chain, ${provider}`,
    ...chains[provider],
    budget: PROVIDERS[provider].budget ?? BUDGET.chain,
  });
}
const providers = Object.keys(PROVIDERS);
for (const provider of providers) {
  const base = provider === "openai" ? "anthropic" : "openai";
  const both = await measure(
    `${chainSource(base)}export { ${PROVIDERS[provider].stage} } from "${pkg.name}/${provider}";\n`,
  );
  rows.push({
    what: `+ ${provider} stage (on ${base})`,
    minified: both.minified - chains[base].minified,
    gzipped: both.gzipped - chains[base].gzipped,
    budget: BUDGET.extraProvider,
  });
}
/** The inputs of a bundle that belong to providers other than `provider` (or to none in particular). */
function foreignInputs(bundle, provider) {
  const shared = PROVIDERS[provider].shares ?? [];
  const foreign = [
    ...providers
      .filter((p) => p !== provider)
      .flatMap((p) => PROVIDERS[p].own)
      .filter((name) => !shared.includes(name)),
    ...MULTI_PROVIDER,
  ];
  return bundle.inputs
    .map((input) => input.path)
    .filter((path) => foreign.some((name) => path === `${distPrefix}${name}.js`));
}
for (const provider of providers) {
  const whole = await measure(`export * from "${pkg.name}/${provider}";\n`);
  rows.push({ what: `all of ${pkg.name}/${provider}`, ...whole });
  const leaked = foreignInputs(whole, provider);
  if (leaked.length > 0)
    failures.push(`${pkg.name}/${provider} bundles ${leaked.join(", ")}, which belong to other providers`);
}
// streamToolCalls from a provider's subpath (bound to its protocol: issue 24), and from the main
// entry, which reads the `provider` option through the registry of every provider. From a
// subpath it has a budget (issue 36): its optional parts (the JSON Schema checks) come as
// plug-ins the app imports; and it holds no other provider's decoder.
// Within 10 KiB: what only some apps need comes as a plug-in.
for (const provider of providers) {
  const source = `export { streamToolCalls } from "${pkg.name}/${provider}";\n`;
  const bound = await measure(source);
  rows.push({
    what: `streamToolCalls, ${provider}`,
    ...bound,
    budget: BUDGET.streamToolCalls,
  });
  const decoders = foreignInputs(bound, provider).filter((path) => path.includes("/providers/"));
  if (decoders.length > 0)
    failures.push(`streamToolCalls from ${pkg.name}/${provider} bundles ${decoders.join(", ")}, of other providers`);
}
// The JSON Schema plug-in alone, and what it adds to one provider's streamToolCalls (the code they share counted once).
const schemaSource = `export { jsonSchema } from "${pkg.name}/schema";\n`;
rows.push({ what: SCHEMA_PLUGIN, ...(await measure(schemaSource)), budget: BUDGET.schemaPlugin });
const withPlugin = await measure(`export { streamToolCalls } from "${pkg.name}/openai";\n${schemaSource}`);
const openaiCall = rows.find((row) => row.what === "streamToolCalls, openai");
rows.push({
  what: `+ ${SCHEMA_PLUGIN} (on streamToolCalls, openai)`,
  minified: withPlugin.minified - openaiCall.minified,
  gzipped: withPlugin.gzipped - openaiCall.gzipped,
});
const mainEntry = `export { streamToolCalls } from "${pkg.name}";\n`;
rows.push({ what: "streamToolCalls, main entry", ...(await measure(mainEntry)) });
for (const subpath of Object.keys(pkg.exports).filter((s) => s === "." || !(s.slice(2) in PROVIDERS))) {
  if (subpath === "./package.json") continue;
  const name = subpath === "." ? pkg.name : `${pkg.name}/${subpath.slice(2)}`;
  rows.push({ what: `all of ${name}`, ...(await measure(`export * from "${name}";\n`)) });
}
// Each client-protocol encoder alone, as a server that answers one protocol bundles it (no budget:
// encoders are not in the core chain).
for (const stage of [
  "OpenAIChatEncoderStream",
  "UIMessageEncoderStream",
  "AGUIEncoderStream",
  "AnthropicMessagesEncoderStream",
  "OpenAIResponsesEncoderStream",
]) {
  rows.push({
    what: `encoder ${stage} (${pkg.name}/encode)`,
    ...(await measure(`export { ${stage} } from "${pkg.name}/encode";\n`)),
  });
}
// The leak check must be able to fail: the root entry holds every provider, so it must be flagged.
const everything = rows.find((row) => row.what === `all of ${pkg.name}`);
if (!everything || foreignInputs(everything, "openai").length < providers.length) {
  failures.push(
    "the provider leak check no longer sees the other providers in the root entry; fix the file lists in scripts/size.mjs",
  );
}
for (const row of rows) {
  if (row.budget !== undefined && row.gzipped > row.budget) {
    failures.push(`${row.what}: ${row.gzipped} B gzipped is over the budget of ${row.budget} B`);
  }
}

if (process.argv.includes("--json")) {
  console.log(
    JSON.stringify(
      rows.map(({ inputs, ...row }) => row),
      null,
      2,
    ),
  );
} else {
  const width = Math.max(...rows.map((row) => row.what.length));
  console.log(`${"bundle".padEnd(width)}  minified  gzipped  budget (gzipped)`);
  for (const row of rows) {
    const budget =
      row.budget === undefined
        ? ""
        : `${Number((row.budget / KiB).toFixed(2))} KiB ${row.gzipped > row.budget ? "OVER" : "ok"}`;
    console.log(
      `${row.what.padEnd(width)}  ${String(row.minified).padStart(8)}  ${String(row.gzipped).padStart(7)}  ${budget}`,
    );
  }
  console.log(
    "(bytes; esbuild --bundle --minify --format=esm --platform=browser, gzip -9; the package has no dependency)",
  );
  const sse = Object.entries(chains)
    .filter(([name]) => !PROVIDERS[name].budget)
    .map(([, chain]) => chain.gzipped);
  console.log(
    `core chain for one provider: ${Math.min(...sse)} to ${Math.max(...sse)} B gzipped, budget ${BUDGET.chain} B; ${Object.entries(
      PROVIDERS,
    )
      .filter(([, { budget }]) => budget)
      .map(([name, { budget }]) => `${name} ${chains[name].gzipped} B, budget ${budget} B`)
      .join("; ")}`,
  );
}
if (failures.length > 0 && !process.argv.includes("--json")) {
  const [largest, chain] = Object.entries(chains).sort(([, a], [, b]) => b.gzipped - a.gzipped)[0];
  console.log(`\nWhere the largest core chain (${largest}) goes, minified bytes of each module before gzip:`);
  for (const { path, bytes } of chain.inputs.filter((input) => input.bytes > 0).sort((a, b) => b.bytes - a.bytes)) {
    console.log(`  ${String(bytes).padStart(6)}  ${path}`);
  }
}
if (process.argv.includes("--readme") || process.argv.includes("--write-readme"))
  for (const file of ["README.md", "docs/performance.md"]) sizeTable(file, rows);
for (const failure of failures) console.error(`!! size: ${failure}`);
process.exit(failures.length > 0 ? 1 : 0);

/**
 * A size table (README.md's, docs/performance.md's) against the rows measured: each row that
 * names a provider's core chain or `streamToolCalls`, the JSON Schema plug-in, and the range of the extra provider stages. A figure is
 * stale when it is off by more than 2% and 100 B; `--write-readme` rewrites them.
 */
function sizeTable(file, rows) {
  const path = join(root, file);
  const readme = readFileSync(path, "utf8");
  const gzipped = (what) => rows.find((row) => row.what === what)?.gzipped;
  const format = (bytes) => bytes.toLocaleString("en-US");
  const close = (shown, measured) => Math.abs(shown - measured) <= Math.max(100, measured * 0.02);
  const extras = rows.filter((row) => / stage \(on /.test(row.what)).map((row) => row.gzipped);
  let seen = 0;
  const stale = [];
  const updated = readme.replace(
    /^\| ([^|\n]+?) \| ([0-9,]+)( to ([0-9,]+))?( [^|\n]*)? \|$/gm,
    (line, label, ...rest) => {
      const [first, , second, note = ""] = rest;
      const chain = /^(core chain|`streamToolCalls`), `[^`/]+(?:\/([a-z-]+))?`/.exec(label);
      const what = label.startsWith(`${SCHEMA_PLUGIN},`)
        ? SCHEMA_PLUGIN
        : chain && `${chain[1] === "core chain" ? "core chain" : "streamToolCalls"}, ${chain[2] ?? "main entry"}`;
      let want;
      if (what) want = [gzipped(what)];
      else if (label === "each extra provider stage" && second !== undefined)
        want = [Math.min(...extras), Math.max(...extras)];
      else return line;
      seen++;
      const shown = (what ? [first] : [first, second]).map((figure) => Number(figure.replaceAll(",", "")));
      if (want.some((figure) => figure === undefined)) {
        stale.push(`${file} size table: no measurement for "${label}"`);
        return line;
      }
      if (!shown.every((figure, i) => close(figure, want[i])))
        stale.push(
          `${file} size table: "${label}" shows ${shown.map(format).join(" and ")}, measured ${want.map(format).join(" and ")}`,
        );
      return what
        ? `| ${label} | ${format(want[0])} |`
        : `| ${label} | ${format(want[0])} to ${format(want[1])}${note} |`;
    },
  );
  if (seen === 0) failures.push(`${file} has no size table rows this script recognizes`);
  if (process.argv.includes("--write-readme")) {
    writeFileSync(path, updated);
    console.log(`${file}: ${seen} size rows written`);
  } else {
    failures.push(...stale);
    if (stale.length === 0) console.log(`${file}: ${seen} size rows match the measurement`);
  }
}
