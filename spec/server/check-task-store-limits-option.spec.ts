import 'reflect-metadata';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { createAgentRequestHandler } from '../../lib/server/create-agent-request-handler';
import { InMemoryTaskStore } from '../../lib/tasks/in-memory-task-store';
import { buildTaskAgent } from '../fixtures/tasks/task-agent';

describe('checkTaskStoreLimitsOption (the server option taskStoreLimits)', () => {
  it("is refused without redis: the tasks live in the agent's taskStore, whose bounds are its own", () => {
    const build = () => createAgentRequestHandler(buildTaskAgent(), { taskStoreLimits: { maxTasks: 10 } });
    expect(build).toThrow(ToolDefinitionError);
    expect(build).toThrow(
      "taskStoreLimits bounds the Redis task store the server makes with redis; here the tasks live in the agent's taskStore. Remove taskStoreLimits and give that store its bounds where it is made (new InMemoryTaskStore({ maxTasksPerOwner, maxResultBytesPerOwner, … })).",
    );
  });

  it('is refused with taskStore, even with redis', () => {
    const build = () =>
      createAgentRequestHandler(buildTaskAgent(), {
        redis: 'redis://127.0.0.1:1',
        taskStore: new InMemoryTaskStore(),
        taskStoreLimits: { maxTasks: 10 },
      });
    expect(build).toThrow(ToolDefinitionError);
    expect(build).toThrow('here the tasks live in the taskStore given');
  });

  it('refuses a bound that is not valid before anything connects', () => {
    const build = () =>
      createAgentRequestHandler(buildTaskAgent(), {
        redis: 'redis://127.0.0.1:1',
        taskStoreLimits: { maxTasksPerOwner: -1 },
      });
    expect(build).toThrow(ToolInputError);
    expect(build).toThrow('maxTasksPerOwner must be a whole number >= 1, got -1.');
  });
});
