// Sample 09 (server): the tools the official MCP conformance suite calls, written as an ordinary @Tool toolset,
// and (in catalog.ts) the resources, template and prompts it reads.
// Serve it:   npx protolink serve samples/09-mcp-conformance/server.ts --http http://127.0.0.1:3001
// Check it:   npx @modelcontextprotocol/conformance server --url http://127.0.0.1:3001/mcp --suite all (Node >= 22)
// The same toolset works in-process through agent.callTool (progress and log become agent events;
// elicit/sample go to the Agent's elicitationHandler/samplingHandler) and served, where they reach the client.
import 'reflect-metadata';
import { Context, Param, RunContext, Tool, Toolset, ToolResult } from '../../lib/index';

// The resources, template and prompts the suite reads (served by `protolink serve` beside the tools).
export { ConformanceCatalog } from './catalog';

/** A 1×1 red PNG. */
const RED_PIXEL_PNG =
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==';
/** A WAV file of one silent sample. */
const SILENT_WAV = 'UklGRiYAAABXQVZFZm10IBAAAAABAAEAQB8AAAB9AAACABAAZGF0YQIAAAA=';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

@Toolset({ tags: ['conformance'] })
export class ConformanceTools {
  @Tool({ name: 'test_simple_text', description: 'Returns a simple text response' })
  simpleText(): string {
    return 'This is a simple text response for testing.';
  }

  @Tool({ name: 'test_image_content', description: 'Returns an image (a 1x1 red PNG)' })
  imageContent(): ToolResult {
    return ToolResult.image(RED_PIXEL_PNG, 'image/png');
  }

  @Tool({ name: 'test_audio_content', description: 'Returns audio (a tiny WAV file)' })
  audioContent(): ToolResult {
    return ToolResult.audio(SILENT_WAV, 'audio/wav');
  }

  @Tool({ name: 'test_embedded_resource', description: 'Returns an embedded text resource' })
  embeddedResource(): ToolResult {
    return ToolResult.resource({
      uri: 'test://embedded-resource',
      mimeType: 'text/plain',
      text: 'This is an embedded resource content.',
    });
  }

  @Tool({ name: 'test_multiple_content_types', description: 'Returns text, an image and a resource' })
  multipleContentTypes(): ToolResult {
    return ToolResult.of(
      'Multiple content types test:',
      ToolResult.image(RED_PIXEL_PNG, 'image/png'),
      ToolResult.resource({
        uri: 'test://mixed-content-resource',
        mimeType: 'application/json',
        text: JSON.stringify({ test: 'data', value: 123 }),
      }),
    );
  }

  @Tool({ name: 'test_tool_with_logging', description: 'Sends three log messages while it runs' })
  async withLogging(@Context() context: RunContext): Promise<string> {
    await context.log('info', 'Tool execution started');
    await sleep(50);
    await context.log('info', 'Tool processing data');
    await sleep(50);
    await context.log('info', 'Tool execution completed');
    return 'Tool with logging executed successfully';
  }

  @Tool({ name: 'test_error_handling', description: 'Always fails' })
  errorHandling(): never {
    throw new Error('This tool intentionally returns an error for testing');
  }

  @Tool({ name: 'test_tool_with_progress', description: 'Reports progress 0, 50 and 100 of 100' })
  async withProgress(@Context() context: RunContext): Promise<string> {
    for (const progress of [0, 50, 100]) {
      await context.reportProgress(progress, 100, `Completed step ${progress} of 100`);
      if (progress < 100) await sleep(50);
    }
    return 'Progress reported';
  }

  @Tool({ name: 'test_sampling', description: "Asks the client's model to answer a prompt" })
  async sampling(
    @Param('prompt', { description: 'The prompt to send to the model' }) prompt: string,
    @Context() context: RunContext,
  ): Promise<string> {
    const result = await context.sample({
      messages: [{ role: 'user', content: { type: 'text', text: prompt } }],
      maxTokens: 100,
    });
    return `LLM response: ${result.content.type === 'text' ? result.content.text : `[${result.content.type}]`}`;
  }

  @Tool({ name: 'test_elicitation', description: 'Asks the user for a username and an email address' })
  async elicitation(
    @Param('message', { description: 'The message to show the user' }) message: string,
    @Context() context: RunContext,
  ): Promise<string> {
    const answer = await context.elicit(message, {
      type: 'object',
      properties: {
        username: { type: 'string', description: "User's response" },
        email: { type: 'string', description: "User's email address" },
      },
      required: ['username', 'email'],
    });
    return `User response: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({
    name: 'test_elicitation_sep1034_defaults',
    description: 'Asks with defaults for every primitive type',
  })
  async elicitationDefaults(@Context() context: RunContext): Promise<string> {
    const answer = await context.elicit('Please review and update the form fields with defaults', {
      type: 'object',
      properties: {
        name: { type: 'string', description: 'User name', default: 'John Doe' },
        age: { type: 'integer', description: 'User age', default: 30 },
        score: { type: 'number', description: 'User score', default: 95.5 },
        status: {
          type: 'string',
          description: 'User status',
          enum: ['active', 'inactive', 'pending'],
          default: 'active',
        },
        verified: { type: 'boolean', description: 'Verification status', default: true },
      },
      required: [],
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({ name: 'test_elicitation_sep1330_enums', description: 'Asks with every enum form of SEP-1330' })
  async elicitationEnums(@Context() context: RunContext): Promise<string> {
    const answer = await context.elicit('Please select options from the enum fields', {
      type: 'object',
      properties: {
        untitledSingle: {
          type: 'string',
          description: 'Select one option',
          enum: ['option1', 'option2', 'option3'],
        },
        titledSingle: {
          type: 'string',
          description: 'Select one option with titles',
          oneOf: [
            { const: 'value1', title: 'First Option' },
            { const: 'value2', title: 'Second Option' },
            { const: 'value3', title: 'Third Option' },
          ],
        },
        legacyEnum: {
          type: 'string',
          description: 'Select one option (legacy)',
          enum: ['opt1', 'opt2', 'opt3'],
          enumNames: ['Option One', 'Option Two', 'Option Three'],
        },
        untitledMulti: {
          type: 'array',
          description: 'Select multiple options',
          minItems: 1,
          maxItems: 3,
          items: { type: 'string', enum: ['option1', 'option2', 'option3'] },
        },
        titledMulti: {
          type: 'array',
          description: 'Select multiple options with titles',
          minItems: 1,
          maxItems: 3,
          items: {
            anyOf: [
              { const: 'value1', title: 'First Choice' },
              { const: 'value2', title: 'Second Choice' },
              { const: 'value3', title: 'Third Choice' },
            ],
          },
        },
      },
      required: [],
    });
    return `Elicitation completed: action=${answer.action}, content=${JSON.stringify(answer.content ?? {})}`;
  }

  @Tool({
    name: 'test_reconnection',
    description: 'Closes its response stream mid-call; the client resumes it and gets the result (SEP-1699)',
  })
  async reconnection(@Context() context: RunContext): Promise<string> {
    context.closeSSEStream();
    await sleep(100);
    return 'Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.';
  }

  @Tool({
    name: 'json_schema_2020_12_tool',
    description: 'Tool with JSON Schema 2020-12 features (SEP-1613)',
    inputSchema: {
      $schema: 'https://json-schema.org/draft/2020-12/schema',
      type: 'object',
      $defs: {
        address: {
          type: 'object',
          properties: { street: { type: 'string' }, city: { type: 'string' } },
        },
      },
      properties: {
        name: { type: 'string' },
        address: { $ref: '#/$defs/address' },
      },
      additionalProperties: false,
    },
  })
  jsonSchema202012(@Param() args: { name?: string; address?: { street?: string; city?: string } }): string {
    return `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}`;
  }
}
