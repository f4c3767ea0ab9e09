import 'reflect-metadata';
import { CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { InMemoryTaskStore } from '../../../../lib/tasks/in-memory-task-store';
import { connectStdioPipe } from '../../../fixtures/serve/stdio-pipe-client';
import { buildTaskAgent } from '../../../fixtures/tasks/task-agent';

describe('served tasks over stdio', () => {
  it('gives each stdio connection its own tasks, even with one store', async () => {
    const taskStore = new InMemoryTaskStore();
    const agent = buildTaskAgent();
    const first = await connectStdioPipe(agent, { taskStore, taskPollIntervalMs: 20 });
    const second = await connectStdioPipe(agent, { taskStore, taskPollIntervalMs: 20 });
    try {
      const created = await first.client.request(
        { method: 'tools/call', params: { name: 'report', arguments: { topic: 'mine' }, task: {} } },
        CreateTaskResultSchema,
      );
      const { taskId } = created.task;
      expect((await first.client.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toEqual([
        taskId,
      ]);
      expect((await second.client.experimental.tasks.listTasks()).tasks).toEqual([]);
      await expect(second.client.experimental.tasks.getTask(taskId)).rejects.toThrow(/Task not found/);
      await expect(second.client.experimental.tasks.cancelTask(taskId)).rejects.toThrow(/Task not found/);
      expect((await first.client.experimental.tasks.getTask(taskId)).taskId).toBe(taskId);
    } finally {
      await first.client.close();
      await second.client.close();
      await first.server.close();
      await second.server.close();
    }
  });
});
