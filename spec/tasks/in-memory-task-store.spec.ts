import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import { taskInput, taskStoreContract } from '../fixtures/tasks/task-store-contract';

describe('InMemoryTaskStore', () => {
  const store = new InMemoryTaskStore();
  taskStoreContract(() => store);

  it('drops expired tasks from memory when they are read', async () => {
    const own = new InMemoryTaskStore();
    const task = await own.create(taskInput('a', { ttlMs: 10 }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await own.get(task.taskId, 'a')).toBeNull();
    expect(own.size).toBe(0);
  });
});
