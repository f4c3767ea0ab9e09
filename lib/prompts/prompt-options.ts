import type { CapabilityList } from '../capabilities/capability-name';
import type { CompletionProviders } from '../resources/completion-provider';

/** Options of `@Prompt`: a prompt template whose `@Param`s (or one DTO) are its arguments. */
export interface PromptOptions {
  /** The prompt's name, unique in the agent (1–128 characters, no whitespace or control characters). */
  name: string;
  /** A human-readable title. */
  title?: string;
  /** What the prompt is for. */
  description?: string;
  /** Capabilities getting the prompt needs, checked by the agent's policy like a tool's. */
  capabilities?: CapabilityList;
  /** Completion providers by argument name (served as `completion/complete`). */
  complete?: CompletionProviders;
}
