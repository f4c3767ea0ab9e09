import { EventEmitter } from 'node:events';
import { ToolInputError } from '../errors/tool-input-error';
import { readSequenceCursor } from '../tasks/read-sequence-cursor';
import type { TaskOutcome, TaskRecord, TaskStatus } from '../tasks/task-record';
import { DEFAULT_TASK_PAGE_SIZE, lostTaskMessage } from '../tasks/task-store';
import type { CreateTaskInput, TaskPage, TaskStore } from '../tasks/task-store';
import { newTaskRecord } from '../tasks/task-store';
import type { RedisCommands } from './redis-commands';
import { CREATE_TASK, HEARTBEAT_TASK, STEP_TASK } from './redis-task-scripts';

/** Options of {@link RedisTaskStore}. */
export interface RedisTaskStoreOptions {
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
 * process are seen by reading (the task runner polls); `watch` tells of the changes made here.
 */
export class RedisTaskStore implements TaskStore {
  private readonly commands: RedisCommands;
  private readonly keyPrefix: string;
  private readonly changes = new EventEmitter();

  constructor(options: RedisTaskStoreOptions) {
    this.commands = options.commands;
    this.keyPrefix = options.keyPrefix ?? 'protolink:';
    this.changes.setMaxListeners(0);
  }

  async create(input: CreateTaskInput): Promise<TaskRecord> {
    assertOwner(input.owner);
    const now = Date.now();
    const record = newTaskRecord(input, now);
    const owner = this.ownerKeys(input.owner);
    await this.commands.script(
      CREATE_TASK,
      [this.taskKey(input.owner, record.taskId), owner.index, owner.sequence],
      [
        record.taskId,
        JSON.stringify(record),
        String(now + input.leaseMs),
        input.ttlMs === null ? '' : String(input.ttlMs),
      ],
    );
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

  async storeResult(
    taskId: string,
    owner: string,
    status: 'completed' | 'failed',
    result: unknown,
    statusMessage?: string,
  ): Promise<TaskRecord | null> {
    if (!isOwner(owner) || !isTaskId(taskId)) return null;
    const step = await this.step(
      taskId,
      owner,
      'result',
      status,
      statusMessage,
      JSON.stringify(result ?? null),
    );
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
  ): Promise<{ record: TaskRecord; changed: boolean } | null> {
    const now = Date.now();
    const answer = (await this.commands.script(
      STEP_TASK,
      [this.taskKey(owner, taskId)],
      [
        mode,
        String(now),
        new Date(now).toISOString(),
        lostTaskMessage('__TOOL__'),
        status,
        statusMessage,
        result,
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
