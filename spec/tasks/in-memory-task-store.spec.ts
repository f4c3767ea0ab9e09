import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import { taskInput, taskStoreContract } from '../fixtures/tasks/task-store-contract';
import { taskStoreBoundsContract } from '../fixtures/tasks/task-store-bounds-contract';

describe('InMemoryTaskStore', () => {
  const store = new InMemoryTaskStore();
  taskStoreContract(() => store);
  taskStoreBoundsContract(async (limits) => new InMemoryTaskStore(limits));

  it('drops expired tasks from memory when they are read', async () => {
    const own = new InMemoryTaskStore();
    const task = await own.create(taskInput('a', { ttlMs: 10 }));
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(await own.get(task.taskId, 'a')).toBeNull();
    expect(own.size).toBe(0);
  });

  it('lists every live task once when an expired one before them is not swept yet', async () => {
    const own = new InMemoryTaskStore();
    await own.create(taskInput('a', { ttlMs: 10 }));
    const second = await own.create(taskInput('a'));
    const third = await own.create(taskInput('a'));
    // Within the store's one-second sweep window: the expired task is still in the owner's list.
    await new Promise((resolve) => setTimeout(resolve, 30));
    const page = await own.list('a');
    expect(page.tasks.map((task) => task.taskId)).toEqual([second.taskId, third.taskId]);
    expect(page.nextCursor).toBeUndefined();
    expect(own.size).toBe(2);
  });

  it('pages past an expired task without skipping the next one', async () => {
    const own = new InMemoryTaskStore();
    const first = await own.create(taskInput('a'));
    await own.create(taskInput('a', { ttlMs: 10 }));
    const third = await own.create(taskInput('a'));
    await new Promise((resolve) => setTimeout(resolve, 30));
    const page = await own.list('a', undefined, 1);
    expect(page.tasks.map((task) => task.taskId)).toEqual([first.taskId]);
    const next = await own.list('a', page.nextCursor, 1);
    expect(next.tasks.map((task) => task.taskId)).toEqual([third.taskId]);
  });
});
