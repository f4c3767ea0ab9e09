import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { ProtolinkModule } from '../../lib/nest/index';
import type { RunContext } from '../../lib/runtime/run-context';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import { Context, Tool } from '../../lib/tools/index';
import { connectHttpClient } from '../fixtures/serve/http-helpers';

const reasons: string[] = [];

@Injectable()
class CrawlTools {
  @Tool({ name: 'crawl_forever', description: 'Crawls until stopped', task: 'required' })
  crawl(@Context() context: RunContext): Promise<string> {
    return new Promise((_resolve, reject) =>
      context.signal.addEventListener('abort', () => {
        reasons.push(String((context.signal.reason as Error)?.message));
        reject(new Error('stopped'));
      }),
    );
  }
}

@Module({ providers: [CrawlTools] })
class CrawlModule {}

describe('ProtolinkModule', () => {
  describe('shutdown with serve', () => {
    it('stops the running tasks and records them failed when the application closes', async () => {
      const taskStore = new InMemoryTaskStore();
      const moduleRef = await Test.createTestingModule({
        imports: [
          ProtolinkModule.forRoot({
            card: { name: 'crawler', description: 'Crawls', url: 'http://127.0.0.1:0' },
            serve: { taskStore },
          }),
          CrawlModule,
        ],
      }).compile();
      const app = moduleRef.createNestApplication({ logger: false });
      await app.listen(0, '127.0.0.1');
      const port = (app.getHttpServer().address() as { port: number }).port;
      const client = await connectHttpClient(`http://127.0.0.1:${port}/mcp`);
      const created = await client.request(
        { method: 'tools/call', params: { name: 'crawl_forever', arguments: {}, task: {} } },
        CreateTaskResultSchema,
      );
      await client.close();
      await app.close();
      expect(reasons).toEqual([expect.stringMatching(/The server shut down while the task ran/)]);
      const internal = taskStore as unknown as {
        tasks: Map<string, { record: { taskId: string; status: string; statusMessage?: string } }>;
      };
      const record = internal.tasks.get(created.task.taskId)?.record;
      expect(record).toMatchObject({
        status: 'failed',
        statusMessage: expect.stringMatching(/The server shut down while the task ran/),
      });
    });
  });
});
