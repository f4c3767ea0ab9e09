import { InMemoryTaskStore } from '../../../tasks/in-memory-task-store';
import type { TaskStore } from '../../../tasks/task-store';
import { readToolTaskSupport } from '../../wire/to-mcp-tool';
import type { SessionToolCalls } from '../session-tool-calls';
import { ServedTasks } from './served-tasks';

/** The statusMessage of a task cancelled because the session that owned it ended. */
export const SESSION_ENDED_TASK_MESSAGE =
  'The session that owned this task ended (deleted, or expired) while it ran; its run was stopped.';

const TASKS = new WeakMap<SessionToolCalls, ServedTasks>();

/**
 * The task side of a server's calls when one of the agent's tools can run as a task (read when a session's
 * server is built, so `tasks` is declared only then); undefined otherwise. Made once per call core, whose
 * close stops its tasks and whose ended sessions cancel the tasks they own (those of a token go on: any later
 * session of that token reads them).
 */
export function servedTasksOf(calls: SessionToolCalls): ServedTasks | undefined {
  const made = TASKS.get(calls);
  if (made) return made;
  const { agent, options } = calls;
  if (![...agent.tools.values()].some((tool) => readToolTaskSupport(tool) !== 'forbidden')) return undefined;
  const agentStore = (agent as { taskStore?: TaskStore }).taskStore;
  const tasks = new ServedTasks({
    store: options.taskStore ?? agentStore ?? new InMemoryTaskStore(),
    maxTaskTtlMs: options.maxTaskTtlMs,
    taskPollIntervalMs: options.taskPollIntervalMs,
    tokenSubject: options.tokenSubject,
  });
  TASKS.set(calls, tasks);
  calls.extend({
    close: () => tasks.close(),
    endSession: async (sessionId) => {
      if (tasks.ownedByToken || !sessionId) return;
      await tasks.runner.cancelOwned(tasks.ownerOf(sessionId), SESSION_ENDED_TASK_MESSAGE);
    },
  });
  return tasks;
}
