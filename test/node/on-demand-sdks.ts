// What test/node/sdk-chunks.test.ts uses of the SDKs it installs on first use (scripts/on-demand.mjs
// `sdk-clients`): their own types come with them, after tsc has run, so the test states these
// shapes to onDemandImport, and test/node/next-turn-sdk-types.test.ts (which type-checks in the
// set's folder) checks that each SDK's module type fits its shape. Types only, no imports: that
// check reads this file from there.
/** A stream call's answer, as sdk-chunks.test.ts reads it. */
type Chunks = Promise<AsyncIterable<object>>;
/** What sdk-chunks.test.ts uses of @aws-sdk/client-bedrock-runtime. */
export interface BedrockSdk {
  BedrockRuntimeClient: new (config: {
    region: string;
    endpoint: string;
    credentials: { accessKeyId: string; secretAccessKey: string };
    maxAttempts: number;
    requestHandler: object;
  }) => { send(command: object): Promise<{ stream?: AsyncIterable<object>; body?: AsyncIterable<object> }> };
  ConverseStreamCommand: new (input: {
    modelId: string;
    messages: { role: "user"; content: { text: string }[] }[];
  }) => object;
  InvokeModelWithResponseStreamCommand: new (input: { modelId: string; body: string }) => object;
}
/** What it uses of @google/genai. */
export interface GenAISdk {
  GoogleGenAI: new (options: {
    apiKey: string;
    httpOptions: { baseUrl: string };
  }) => {
    models: { generateContentStream(request: { model: string; contents: string }): Chunks };
    interactions: { create(request: { model: string; input: string; stream: true }): Chunks };
  };
}
/** What it uses of cohere-ai. */
export interface CohereSdk {
  CohereClientV2: new (options: {
    token: string;
    environment: string;
  }) => {
    chatStream(request: { model: string; messages: { role: "user"; content: string }[] }): Chunks;
  };
}
/** What it uses of @smithy/node-http-handler. */
export interface SmithyHttp {
  NodeHttpHandler: new () => object;
}
