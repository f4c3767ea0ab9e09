import { ToolDefinitionError } from '../errors/tool-definition-error';
import { resolveTaskStoreLimits } from '../tasks/task-store-limits';
import type { TaskStoreLimits } from '../tasks/task-store-limits';
import type { AgentServerOptions } from '../agents/agent-server-options';

/**
 * Checks the server option `taskStoreLimits`: it bounds the Redis task store the server makes with `redis`,
 * so it is refused where the tasks live in a store made elsewhere (the agent's `taskStore`, or the option
 * `taskStore`), whose bounds are set where it is made.
 *
 * @throws ToolDefinitionError when given without `redis`, or with `taskStore`.
 * @throws ToolInputError for a bound that is not valid (see `resolveTaskStoreLimits`).
 */
export function checkTaskStoreLimitsOption(
  options: Pick<AgentServerOptions, 'taskStoreLimits' | 'taskStore' | 'redis'>,
): TaskStoreLimits | undefined {
  const limits = options.taskStoreLimits;
  if (limits === undefined) return undefined;
  if (options.redis === undefined || options.taskStore !== undefined) {
    throw new ToolDefinitionError(
      `taskStoreLimits bounds the Redis task store the server makes with redis; here the tasks live in ${
        options.taskStore === undefined ? "the agent's taskStore" : 'the taskStore given'
      }. Remove taskStoreLimits and give that store its bounds where it is made ` +
        '(new InMemoryTaskStore({ maxTasksPerOwner, maxResultBytesPerOwner, … })).',
    );
  }
  resolveTaskStoreLimits(limits);
  return limits;
}
