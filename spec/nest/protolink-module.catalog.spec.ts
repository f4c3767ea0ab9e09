import 'reflect-metadata';
import { Injectable, Module, Scope } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ProtolinkModule } from '../../lib/nest/index';
import { Resource } from '../../lib/resources/resource.decorator';
import { NotesAppModule, NoteStore } from '../../samples/14-nest-resources-and-prompts/notes.module';

describe('ProtolinkModule with resources and prompts', () => {
  describe('in a Nest application', () => {
    it('discovers resources, templates and prompts on DI-constructed providers, with their dependencies', async () => {
      const app = await NestFactory.create(NotesAppModule, { logger: false });
      await app.init();
      try {
        const agent = app.get(Agent);
        expect(agent.catalog.listResources().map((entry) => entry.uri)).toEqual([
          'notes://folders',
          'notes://private/diary',
        ]);
        expect(agent.catalog.listResourceTemplates().map((entry) => entry.uriTemplate)).toEqual([
          'notes://{folder}/{id}',
        ]);
        expect([...agent.tools.keys()]).toEqual(['add_note']);
        // The injected store is the one the resource reads: a tool call's write is visible to the next read.
        await agent.callTool('add_note', { folder: 'ideas', text: 'Fresh idea' });
        expect(app.get(NoteStore).read('ideas', 2)).toBe('Fresh idea');
        expect((await agent.readResource('notes://ideas/2')).contents).toEqual([
          { uri: 'notes://ideas/2', mimeType: 'text/plain', text: 'Fresh idea' },
        ]);
        const prompt = await agent.getPrompt('plan_day', { folder: 'inbox' });
        expect(prompt.messages[1]).toEqual({
          role: 'user',
          content: { type: 'text', text: 'Plan my day around the note above (folder inbox).' },
        });
        await expect(agent.readResource('notes://private/diary')).rejects.toThrow(ActionDeniedError);
        expect(agent.card.skills.map((skill) => skill.id)).toEqual(
          expect.arrayContaining(['add_note', 'resource:notes://folders', 'prompt:plan_day']),
        );
      } finally {
        await app.close();
      }
    });

    it('refuses a resource on a request-scoped provider, naming the provider', async () => {
      @Injectable({ scope: Scope.REQUEST })
      class ScopedResources {
        @Resource({ uri: 'scoped://x' })
        read(): string {
          return 'x';
        }
      }
      @Module({
        imports: [
          ProtolinkModule.forRoot({ card: { name: 'a', description: 'a', url: 'http://127.0.0.1:0' } }),
        ],
        providers: [ScopedResources],
      })
      class ScopedModule {}
      const error = await NestFactory.createApplicationContext(ScopedModule, {
        logger: false,
        abortOnError: false,
      }).then(
        async (app) => {
          await app.close();
          return undefined;
        },
        (caught: unknown) => caught,
      );
      expect(error).toBeInstanceOf(ToolDefinitionError);
      expect((error as Error).message).toBe(
        'ScopedResources is a class with @Resource, @ResourceTemplate or @Prompt methods on a request-scoped provider. Tools are registered once on the application-wide Agent, so their provider must be a singleton: remove the scope option (or move the tool to a singleton service that takes the request data as arguments).',
      );
    });
  });
});
