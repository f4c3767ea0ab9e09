// Sample 09 (server, catalog): the resources, resource template, prompts and completion the official MCP
// conformance suite reads, written as ordinary @Resource, @ResourceTemplate and @Prompt methods.
import 'reflect-metadata';
import { Param, Prompt, Resource, ResourceTemplate, ToolResult } from '../../lib/index';

/** A 1×1 red PNG. */
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';

/** Suggestions for the `arg1` argument of `test_prompt_with_arguments` (completion/complete). */
const ARG1_SUGGESTIONS = ['paris', 'park', 'party', 'test', 'testing'];

export class ConformanceCatalog {
  @Resource({
    uri: 'test://static-text',
    name: 'static-text',
    description: 'A static text resource',
    mimeType: 'text/plain',
  })
  staticText(): string {
    return 'This is the content of the static text resource.';
  }

  @Resource({
    uri: 'test://static-binary',
    name: 'static-binary',
    description: 'A static binary resource (a 1x1 red PNG)',
    mimeType: 'image/png',
  })
  staticBinary(): Uint8Array {
    return Buffer.from(RED_PIXEL_PNG, 'base64');
  }

  @Resource({
    uri: 'test://watched-resource',
    name: 'watched-resource',
    description: 'A resource clients subscribe to',
    mimeType: 'text/plain',
  })
  watched(): string {
    return 'Watched resource content.';
  }

  @ResourceTemplate({
    uriTemplate: 'test://template/{id}/data',
    name: 'template-data',
    description: 'Data for one id',
    mimeType: 'application/json',
  })
  templateData(@Param('id') id: string): string {
    return JSON.stringify({ id, templateTest: true, data: `Data for ID: ${id}` });
  }

  @Prompt({ name: 'test_simple_prompt', description: 'A simple prompt without arguments' })
  simplePrompt(): string {
    return 'This is a simple prompt for testing.';
  }

  @Prompt({
    name: 'test_prompt_with_arguments',
    description: 'A prompt with two required arguments',
    complete: { arg1: (value) => ARG1_SUGGESTIONS.filter((suggestion) => suggestion.startsWith(value)) },
  })
  promptWithArguments(
    @Param('arg1', { description: 'First test argument' }) arg1: string,
    @Param('arg2', { description: 'Second test argument' }) arg2: string,
  ): string {
    return `Prompt with arguments: arg1='${arg1}', arg2='${arg2}'`;
  }

  @Prompt({ name: 'test_prompt_with_embedded_resource', description: 'A prompt that embeds a resource' })
  promptWithEmbeddedResource(
    @Param('resourceUri', { description: 'URI of the resource to embed' }) resourceUri: string,
  ): unknown[] {
    return [
      {
        role: 'user',
        content: {
          type: 'resource',
          resource: {
            uri: resourceUri,
            mimeType: 'text/plain',
            text: 'Embedded resource content for testing.',
          },
        },
      },
      { role: 'user', content: 'Please process the embedded resource above.' },
    ];
  }

  @Prompt({ name: 'test_prompt_with_image', description: 'A prompt with an image' })
  promptWithImage(): unknown[] {
    return [
      { role: 'user', content: ToolResult.image(RED_PIXEL_PNG, 'image/png') },
      { role: 'user', content: 'Please analyze the image above.' },
    ];
  }
}
