// Sample 14: a NestJS service's resources, resource template and prompt, discovered through DI and served over
// MCP from the Nest application's own HTTP server; a read the policy denies is an error, never data.
// Run: npx ts-node --transpile-only samples/14-nest-resources-and-prompts/main.ts
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { NestFactory } from '@nestjs/core';
import { Agent } from '../../lib/index';
import { NotesAppModule } from './notes.module';

async function main(): Promise<void> {
  const app = await NestFactory.create(NotesAppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  try {
    // In process: the same guarded path as a tool call.
    const agent = app.get(Agent);
    const note = await agent.readResource('notes://inbox/2');
    console.log('in process, notes://inbox/2 =', JSON.stringify(note.contents[0]));

    // Over MCP.
    const client = new Client({ name: 'sample-14', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${await app.getUrl()}/mcp`)));
    const { resources } = await client.listResources();
    console.log('resources:', resources.map((resource) => resource.uri).join(', '));
    const { resourceTemplates } = await client.listResourceTemplates();
    console.log('templates:', resourceTemplates.map((template) => template.uriTemplate).join(', '));
    const folders = await client.readResource({ uri: 'notes://folders' });
    console.log('folders:', JSON.stringify((folders.contents[0] as { text: string }).text));
    const completion = await client.complete({
      ref: { type: 'ref/resource', uri: 'notes://{folder}/{id}' },
      argument: { name: 'folder', value: 'i' },
    });
    console.log('complete folder "i":', completion.completion.values.join(', '));
    const prompt = await client.getPrompt({ name: 'plan_day', arguments: { folder: 'inbox' } });
    console.log('plan_day messages:', prompt.messages.map((message) => message.content.type).join(', '));
    try {
      await client.readResource({ uri: 'notes://private/diary' });
    } catch (error) {
      console.log('notes://private/diary refused:', (error as Error).message);
    }
    await client.close();
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
