import type { GeminiJsonSchemaTool } from '../to-gemini-tools';
import type { GeminiContent } from '../providers/gemini-content-format';

/** The `generateContent` parameters Protolink passes to `@google/genai` (a subset of its own). */
export interface GeminiGenerateContentParams {
  model: string;
  contents: GeminiContent[];
  config?: {
    systemInstruction?: { parts: { text: string }[] };
    tools?: GeminiJsonSchemaTool[];
    temperature?: number;
    maxOutputTokens?: number;
    /** Aborts the request when the run is canceled. */
    abortSignal?: AbortSignal;
  };
}

/**
 * The part of a `@google/genai` client (`new GoogleGenAI({ apiKey })`) that {@link fromGemini} calls.
 * Declared here so that `protolink` never imports the SDK; a real client is assignable as is.
 */
export interface GeminiClient {
  /** The models module. */
  readonly models: {
    /** Runs one non-streaming generateContent call. */
    generateContent(params: GeminiGenerateContentParams): PromiseLike<unknown>;
  };
}
