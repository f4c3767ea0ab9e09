import { ToolInputError } from '../../lib/errors/tool-input-error';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import {
  TASK_STORE_LIMIT_DEFAULTS,
  resolveTaskStoreLimits,
  taskResultBytes,
} from '../../lib/tasks/task-store-limits';

describe('resolveTaskStoreLimits', () => {
  it('gives the defaults: 5,000 tasks per owner, 10,000 in all, 8 MiB per result, 32 MiB per owner, 128 MiB in all', () => {
    expect(resolveTaskStoreLimits()).toEqual({
      maxTasksPerOwner: 5_000,
      maxTasks: 10_000,
      maxResultBytesPerTask: 8 * 1024 * 1024,
      maxResultBytesPerOwner: 32 * 1024 * 1024,
      maxResultBytes: 128 * 1024 * 1024,
    });
    expect(new InMemoryTaskStore().limits).toEqual(TASK_STORE_LIMIT_DEFAULTS);
  });

  it('lowers a default above a smaller bound given, so the byte bounds nest', () => {
    expect(resolveTaskStoreLimits({ maxResultBytes: 1_000_000 })).toMatchObject({
      maxResultBytes: 1_000_000,
      maxResultBytesPerOwner: 1_000_000,
      maxResultBytesPerTask: 1_000_000,
    });
    expect(resolveTaskStoreLimits({ maxResultBytesPerOwner: 4_000 })).toMatchObject({
      maxResultBytesPerOwner: 4_000,
      maxResultBytesPerTask: 4_000,
    });
  });

  it.each([
    [{ maxTasksPerOwner: 0 }, 'maxTasksPerOwner must be a whole number >= 1, got 0.'],
    [{ maxTasks: 1.5 }, 'maxTasks must be a whole number >= 1, got 1.5.'],
    [{ maxResultBytes: Number.NaN }, 'maxResultBytes must be a whole number >= 1, got NaN.'],
    [
      { maxResultBytesPerTask: 2_000, maxResultBytesPerOwner: 1_000 },
      'maxResultBytesPerTask (2000) must not exceed maxResultBytesPerOwner (1000): a result that size could never be kept. Lower maxResultBytesPerTask or raise maxResultBytesPerOwner.',
    ],
    [
      { maxResultBytesPerOwner: 2_000, maxResultBytes: 1_000 },
      'maxResultBytesPerOwner (2000) must not exceed maxResultBytes (1000)',
    ],
  ])('refuses %j with ToolInputError', (limits, message) => {
    expect(() => resolveTaskStoreLimits(limits)).toThrow(ToolInputError);
    expect(() => new InMemoryTaskStore(limits)).toThrow(message);
  });
});

describe('taskResultBytes', () => {
  it('counts the UTF-8 bytes of the JSON and of the status message', () => {
    expect(taskResultBytes('"é"', undefined)).toBe(4);
    expect(taskResultBytes('{}', 'failed: ü')).toBe(2 + 10);
  });
});
