import { EventEmitter } from 'node:events';
import { TaskResultTooLargeError } from '../errors/task-result-too-large-error';
import { TooManyTasksError } from '../errors/too-many-tasks-error';
import { ToolInputError } from '../errors/tool-input-error';
import { readSequenceCursor } from '../tasks/read-sequence-cursor';
import { isTerminalTaskStatus } from '../tasks/task-record';
import type { TaskOutcome, TaskRecord, TaskStatus } from '../tasks/task-record';
import { DEFAULT_TASK_PAGE_SIZE, lostTaskMessage } from '../tasks/task-store';
import type { CreateTaskInput, TaskPage, TaskStore } from '../tasks/task-store';
import { newTaskRecord } from '../tasks/task-store';
import { resolveTaskStoreLimits, taskResultBytes } from '../tasks/task-store-limits';
import type { ResolvedTaskStoreLimits, TaskStoreLimits } from '../tasks/task-store-limits';
import type { RedisCommands } from './redis-commands';
import { CREATE_TASK, HEARTBEAT_TASK, STEP_TASK } from './redis-task-scripts';

/** Options of {@link RedisTaskStore}: the connection, the key prefix, and the bounds (over the prefix for the totals). */
export interface RedisTaskStoreOptions extends TaskStoreLimits {
  /** The connection (see `createRedisBackend`). */
  commands: RedisCommands;
  /** Prefix of every key (default `protolink:`). */
  keyPrefix?: string;
}

/** An owner is a session id or a token subject with its kind: visible ASCII without the braces of hash tags. */
const OWNER = /^[\x21-\x7a\x7c\x7e]{1,300}$/;

/**
 * The tasks on Redis, shared by every process serving the agent: per task a hash
 * `<prefix>task:{<owner>}:<taskId>` (record JSON, result JSON, lease deadline) that expires with the task's
 * TTL, and per owner a sorted set `<prefix>tasks:{<owner>}` scored by a sequence (`…:seq`) for paging (both
 * expire with the owner's longest-lived task). Every
 * status change is one Lua step that writes nothing after a terminal status and first marks a task whose
 * lease ran out as `failed`, so a task whose process died never stays `working`. Changes made by another
 * process are seen by reading (the task runner polls); `watch` tells of the changes made here. The bounds
 * ({@link TaskStoreLimits}) are kept in ledgers beside the tasks, per owner and over the key prefix, by the
 * same Lua steps (see `redis-task-scripts.ts`): beyond one the oldest ended task is forgotten first.
 */
export class RedisTaskStore implements TaskStore {
  /** The bounds in force (the defaults where none was given). */
  readonly limits: ResolvedTaskStoreLimits;
  private readonly commands: RedisCommands;
  private readonly keyPrefix: string;
  private readonly changes = new EventEmitter();

  /** @throws ToolInputError for a bound that is not valid (see `resolveTaskStoreLimits`). */
  constructor(options: RedisTaskStoreOptions) {
    this.commands = options.commands;
    this.keyPrefix = options.keyPrefix ?? 'protolink:';
    this.limits = resolveTaskStoreLimits(options);
    this.changes.setMaxListeners(0);
  }

  /**
   * Creates a task (forgetting the oldest ended one of the owner, then of anyone, at a count bound).
   *
   * @throws TooManyTasksError when the owner's or the prefix's tasks are at their bound and all still run.
   */
  async create(input: CreateTaskInput): Promise<TaskRecord> {
    assertOwner(input.owner);
    const now = Date.now();
    const record = newTaskRecord(input, now);
    const owner = this.ownerKeys(input.owner);
    const answer = await this.commands.script(
      CREATE_TASK,
      [
        this.taskKey(input.owner, record.taskId),
        owner.index,
        owner.sequence,
        ...this.ledgerKeys(input.owner),
      ],
      [
        record.taskId,
        JSON.stringify(record),
        String(now + input.leaseMs),
        input.ttlMs === null ? '' : String(input.ttlMs),
        this.keyPrefix,
        input.owner,
        String(this.limits.maxTasksPerOwner),
        String(this.limits.maxTasks),
      ],
    );
    if (Array.isArray(answer)) {
      const bound = String(answer[1]) === 'maxTasks' ? 'maxTasks' : 'maxTasksPerOwner';
      throw new TooManyTasksError({ toolName: input.toolName, bound, limit: this.limits[bound] });
    }
    return record;
  }

  async get(taskId: string, owner: string): Promise<TaskRecord | null> {
    if (!isOwner(owner) || !isTaskId(taskId)) return null;
    return (await this.step(taskId, owner, 'read'))?.record ?? null;
  }

  async list(owner: string, cursor?: string, limit = DEFAULT_TASK_PAGE_SIZE): Promise<TaskPage> {
    const after = readSequenceCursor(cursor);
    if (!isOwner(owner)) return { tasks: [] };
    const { index } = this.ownerKeys(owner);
    const reply = (await this.commands.send([
      'ZRANGE',
      index,
      `(${after}`,
      '+inf',
      'BYSCORE',
      'LIMIT',
      '0',
      String(limit + 1),
      'WITHSCORES',
    ])) as unknown[];
    const entries = toPairs(reply);
    const page = entries.slice(0, limit);
    const tasks: TaskRecord[] = [];
    const gone: string[] = [];
    for (const [taskId] of page) {
      const record = await this.get(taskId, owner);
      if (record) tasks.push(record);
      else gone.push(taskId);
    }
    if (gone.length > 0) await this.commands.send(['ZREM', index, ...gone]);
    return entries.length > limit ? { tasks, nextCursor: page[page.length - 1][1] } : { tasks };
  }

  async updateStatus(
    taskId: string,
    owner: string,
    status: TaskStatus,
    statusMessage?: string,
  ): Promise<TaskRecord | null> {
    if (!isOwner(owner) || !isTaskId(taskId)) return null;
    const step = await this.step(taskId, owner, 'status', status, statusMessage);
    return step?.changed ? step.record : null;
  }

  /**
   * Ends a task with a result (forgetting the oldest ended tasks of the owner, then of anyone, until it fits).
   *
   * @throws TaskResultTooLargeError when the result is over `maxResultBytesPerTask` (nothing is written).
   */
  async storeResult(
    taskId: string,
    owner: string,
    status: 'completed' | 'failed',
    result: unknown,
    statusMessage?: string,
  ): Promise<TaskRecord | null> {
    if (!isOwner(owner) || !isTaskId(taskId)) return null;
    const json = JSON.stringify(result ?? null);
    const bytes = taskResultBytes(json, statusMessage);
    if (bytes > this.limits.maxResultBytesPerTask) {
      // Not sent to Redis: only the tool's name is read, for the error (none for a task gone or ended).
      const record = await this.get(taskId, owner);
      if (!record || isTerminalTaskStatus(record.status)) return null;
      throw new TaskResultTooLargeError({
        toolName: record.toolName,
        bytes,
        limit: this.limits.maxResultBytesPerTask,
      });
    }
    const step = await this.step(taskId, owner, 'result', status, statusMessage, json, bytes);
    return step?.changed ? step.record : null;
  }

  async getResult(taskId: string, owner: string): Promise<TaskOutcome | undefined> {
    if (!isOwner(owner) || !isTaskId(taskId)) return undefined;
    const json = (await this.commands.send(['HGET', this.taskKey(owner, taskId), 'result'])) as string | null;
    return json === null ? undefined : { result: JSON.parse(json) as unknown };
  }

  async heartbeat(taskId: string, owner: string, leaseMs: number): Promise<void> {
    if (!isOwner(owner) || !isTaskId(taskId)) return;
    await this.commands.script(HEARTBEAT_TASK, [this.taskKey(owner, taskId)], [String(Date.now() + leaseMs)]);
  }

  watch(taskId: string, listener: () => void): () => void {
    this.changes.on(taskId, listener);
    return () => this.changes.off(taskId, listener);
  }

  private async step(
    taskId: string,
    owner: string,
    mode: 'read' | 'status' | 'result',
    status = '',
    statusMessage = '',
    result = '',
    bytes = 0,
  ): Promise<{ record: TaskRecord; changed: boolean } | null> {
    const now = Date.now();
    const answer = (await this.commands.script(
      STEP_TASK,
      [this.taskKey(owner, taskId), ...this.ledgerKeys(owner)],
      [
        mode,
        String(now),
        new Date(now).toISOString(),
        lostTaskMessage('__TOOL__'),
        status,
        statusMessage,
        result,
        this.keyPrefix,
        owner,
        taskId,
        String(bytes),
        String(this.limits.maxResultBytesPerOwner),
        String(this.limits.maxResultBytes),
      ],
    )) as [string, string] | null;
    if (!answer) return null;
    const record = JSON.parse(answer[1]) as TaskRecord;
    const changed = answer[0] === '1';
    if (changed || record.lastUpdatedAt === new Date(now).toISOString()) this.changes.emit(taskId);
    return { record, changed };
  }

  private taskKey(owner: string, taskId: string): string {
    return `${this.keyPrefix}task:{${owner}}:${taskId}`;
  }

  private ownerKeys(owner: string): { index: string; sequence: string } {
    const index = `${this.keyPrefix}tasks:{${owner}}`;
    return { index, sequence: `${index}:seq` };
  }

  /** The ledgers' keys, the owner's then the prefix's: live, ended, bytes (as the scripts build them). */
  private ledgerKeys(owner: string): string[] {
    const index = `${this.keyPrefix}tasks:{${owner}}`;
    const total = `${this.keyPrefix}tasks`;
    return [
      `${index}:live`,
      `${index}:ended`,
      `${index}:bytes`,
      `${total}:live`,
      `${total}:ended`,
      `${total}:bytes`,
    ];
  }
}

/** `[member, score]` pairs of a WITHSCORES reply (flat in RESP2, nested in RESP3). */
function toPairs(reply: unknown[]): Array<[string, string]> {
  if (reply.length > 0 && Array.isArray(reply[0])) {
    return (reply as unknown[][]).map(([member, score]) => [String(member), String(score)]);
  }
  const pairs: Array<[string, string]> = [];
  for (let position = 0; position + 1 < reply.length; position += 2) {
    pairs.push([String(reply[position]), String(reply[position + 1])]);
  }
  return pairs;
}

function isOwner(owner: string): boolean {
  return typeof owner === 'string' && OWNER.test(owner);
}

function isTaskId(taskId: string): boolean {
  return typeof taskId === 'string' && /^[A-Za-z0-9-]{1,100}$/.test(taskId);
}

function assertOwner(owner: string): void {
  if (!isOwner(owner)) {
    throw new ToolInputError(
      `A Redis task owner must be 1-300 visible ASCII characters without braces, got '${String(owner).slice(0, 100)}'.`,
    );
  }
}
