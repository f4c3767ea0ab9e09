import { ToolDefinitionError } from '../errors/tool-definition-error';
import { assertKnownOptions, defineKnownOptions } from '../runtime/assert-known-options';
import { catalogMethodDecorator, freezeCatalogOptions } from '../resources/catalog-method-decorator';
import type { PromptOptions } from './prompt-options';

const PROMPT_OPTIONS = defineKnownOptions<PromptOptions>(
  '@Prompt()',
  { name: true, title: true, description: true, capabilities: true, complete: true },
  {
    arguments: "declare the arguments with @Param on the method's parameters (or one DTO @Param())",
    messages: 'the decorated method returns the messages',
  },
);

/** Prompt names: no whitespace or control characters, 1–128 characters. */
const PROMPT_NAME = /^[^\s\p{Cc}]{1,128}$/u;

/**
 * Marks a method as a prompt template. Its named `@Param`s (or one DTO `@Param()`) are the prompt's
 * arguments, validated and coerced like tool arguments; it returns a string (one user text message), a
 * message `{ role, content }` or a list of them, where `content` is a string, a content part (text, image,
 * audio, embedded resource) or a `ToolResult`. `agent.getPrompt(name, args)` and `prompts/get` run it
 * through the agent's policy like a tool call.
 *
 * @throws ToolDefinitionError for a bad name, a `complete` provider that is not a function, an option of the
 *   wrong kind or not known, or a static method.
 */
export function Prompt(options: PromptOptions): MethodDecorator {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(
      "@Prompt() needs options: @Prompt({ name: 'summarize', description: 'Summarize a text' }).",
    );
  }
  if (typeof options.name !== 'string' || !PROMPT_NAME.test(options.name)) {
    throw new ToolDefinitionError(
      `@Prompt() has the invalid name ${JSON.stringify(options.name)}: use 1–128 characters without whitespace, e.g. 'summarize_text'.`,
    );
  }
  const where = `@Prompt({ name: '${options.name}' })`;
  assertKnownOptions(options, PROMPT_OPTIONS, { where });
  return catalogMethodDecorator('prompt', where, freezeCatalogOptions(options, where, undefined));
}
