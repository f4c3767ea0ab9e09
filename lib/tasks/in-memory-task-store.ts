import { TaskResultTooLargeError } from '../errors/task-result-too-large-error';
import { TooManyTasksError } from '../errors/too-many-tasks-error';
import { isTerminalTaskStatus } from './task-record';
import { readSequenceCursor } from './read-sequence-cursor';
import type { TaskOutcome, TaskRecord, TaskStatus } from './task-record';
import { DEFAULT_TASK_PAGE_SIZE, lostTaskMessage } from './task-store';
import type { CreateTaskInput, TaskPage, TaskStore } from './task-store';
import { newTaskRecord } from './task-store';
import { resolveTaskStoreLimits, taskResultBytes } from './task-store-limits';
import type { ResolvedTaskStoreLimits, TaskStoreLimits } from './task-store-limits';

interface StoredTask {
  record: TaskRecord;
  outcome?: TaskOutcome;
  readonly sequence: number;
  readonly expiresAt: number;
  leaseUntil: number;
  /** What its result counts against the byte bounds (0 until it has one). */
  bytes: number;
}

/** Expired tasks are swept at most this often (every read also checks its own task). */
const SWEEP_INTERVAL_MS = 1_000;

/**
 * The default {@link TaskStore}: tasks in this process's memory, gone with it. Expired tasks are dropped
 * when read and swept as the store is used; a task whose lease ran out (its run stopped heartbeating)
 * reads as `failed`. Bounded by {@link TaskStoreLimits} per owner and over the whole process: beyond a
 * bound the oldest ended task is forgotten first (of the owner, or of anyone for the totals); a new task is
 * refused with `TooManyTasksError` only when every task kept is still running.
 */
export class InMemoryTaskStore implements TaskStore {
  /** The bounds in force (the defaults where none was given). */
  readonly limits: ResolvedTaskStoreLimits;
  private readonly tasks = new Map<string, StoredTask>();
  private readonly byOwner = new Map<string, StoredTask[]>();
  // Ended tasks in the order they ended (a Set keeps insertion order): the first is forgotten first.
  private readonly ended = new Set<StoredTask>();
  private readonly endedByOwner = new Map<string, Set<StoredTask>>();
  private readonly bytesByOwner = new Map<string, number>();
  private totalBytes = 0;
  private readonly listeners = new Map<string, Set<() => void>>();
  private sequence = 0;
  private lastSweep = 0;

  /** @throws ToolInputError for a bound that is not valid (see `resolveTaskStoreLimits`). */
  constructor(limits: TaskStoreLimits = {}) {
    this.limits = resolveTaskStoreLimits(limits);
  }

  /** How many tasks are held (expired ones included until swept). */
  get size(): number {
    return this.tasks.size;
  }

  /** How many bytes of results are held (see {@link TaskStoreLimits}). */
  get resultBytes(): number {
    return this.totalBytes;
  }

  /**
   * Creates a task, first forgetting the oldest ended task of the owner (then of anyone) when a count bound
   * is reached.
   *
   * @throws TooManyTasksError when the owner's or the store's tasks are at their bound and all still running.
   */
  async create(input: CreateTaskInput): Promise<TaskRecord> {
    this.sweep();
    this.makeRoomForTask(input);
    const now = Date.now();
    const record = newTaskRecord(input, now);
    const stored: StoredTask = {
      record,
      sequence: ++this.sequence,
      expiresAt: input.ttlMs === null ? Infinity : now + input.ttlMs,
      leaseUntil: now + input.leaseMs,
      bytes: 0,
    };
    this.tasks.set(record.taskId, stored);
    const owned = this.byOwner.get(input.owner);
    if (owned) owned.push(stored);
    else this.byOwner.set(input.owner, [stored]);
    return record;
  }

  async get(taskId: string, owner: string): Promise<TaskRecord | null> {
    return this.read(taskId, owner)?.record ?? null;
  }

  async list(owner: string, cursor?: string, limit = DEFAULT_TASK_PAGE_SIZE): Promise<TaskPage> {
    this.sweep();
    const after = readSequenceCursor(cursor);
    const owned = this.byOwner.get(owner) ?? [];
    let start = 0;
    let end = owned.length;
    while (start < end) {
      const middle = (start + end) >>> 1;
      if (owned[middle].sequence <= after) start = middle + 1;
      else end = middle;
    }
    const tasks: TaskRecord[] = [];
    // Expired tasks are removed after the walk: removing them during it would shift the array under it.
    const expired: StoredTask[] = [];
    const now = Date.now();
    let index = start;
    for (; index < owned.length && tasks.length < limit; index++) {
      const stored = owned[index];
      if (stored.expiresAt <= now) expired.push(stored);
      else tasks.push(this.settleLease(stored, now).record);
    }
    const page = index < owned.length ? { tasks, nextCursor: String(owned[index - 1].sequence) } : { tasks };
    for (const stored of expired) this.remove(stored);
    return page;
  }

  async updateStatus(
    taskId: string,
    owner: string,
    status: TaskStatus,
    statusMessage?: string,
  ): Promise<TaskRecord | null> {
    const stored = this.read(taskId, owner);
    if (!stored || isTerminalTaskStatus(stored.record.status)) return null;
    return this.change(stored, status, statusMessage);
  }

  /**
   * Ends a task with a result, first forgetting the oldest ended tasks of the owner (then of anyone) until
   * its bytes fit the bounds.
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
    const stored = this.read(taskId, owner);
    if (!stored || isTerminalTaskStatus(stored.record.status)) return null;
    const bytes = this.measure(result, statusMessage);
    if (bytes > this.limits.maxResultBytesPerTask) {
      throw new TaskResultTooLargeError({
        toolName: stored.record.toolName,
        bytes,
        limit: this.limits.maxResultBytesPerTask,
      });
    }
    this.makeRoomForBytes(owner, bytes);
    stored.outcome = { result };
    stored.bytes = bytes;
    this.bytesByOwner.set(owner, (this.bytesByOwner.get(owner) ?? 0) + bytes);
    this.totalBytes += bytes;
    return this.change(stored, status, statusMessage);
  }

  async getResult(taskId: string, owner: string): Promise<TaskOutcome | undefined> {
    return this.read(taskId, owner)?.outcome;
  }

  async heartbeat(taskId: string, owner: string, leaseMs: number): Promise<void> {
    const stored = this.read(taskId, owner);
    if (stored) stored.leaseUntil = Date.now() + leaseMs;
  }

  watch(taskId: string, listener: () => void): () => void {
    let set = this.listeners.get(taskId);
    if (!set) this.listeners.set(taskId, (set = new Set()));
    set.add(listener);
    return () => {
      set.delete(listener);
      if (set.size === 0 && this.listeners.get(taskId) === set) this.listeners.delete(taskId);
    };
  }

  /** Drops every task. */
  clear(): void {
    this.tasks.clear();
    this.byOwner.clear();
    this.ended.clear();
    this.endedByOwner.clear();
    this.bytesByOwner.clear();
    this.totalBytes = 0;
  }

  /** @throws TooManyTasksError when a count bound is reached and no task under it has ended. */
  private makeRoomForTask(input: CreateTaskInput): void {
    const { maxTasksPerOwner, maxTasks } = this.limits;
    const ownedCount = () => this.byOwner.get(input.owner)?.length ?? 0;
    if (ownedCount() >= maxTasksPerOwner || this.tasks.size >= maxTasks) this.sweep(true);
    while (ownedCount() >= maxTasksPerOwner) {
      const oldest = first(this.endedByOwner.get(input.owner));
      if (!oldest) {
        throw new TooManyTasksError({
          toolName: input.toolName,
          bound: 'maxTasksPerOwner',
          limit: maxTasksPerOwner,
        });
      }
      this.remove(oldest);
    }
    while (this.tasks.size >= maxTasks) {
      const oldest = first(this.ended);
      if (!oldest)
        throw new TooManyTasksError({ toolName: input.toolName, bound: 'maxTasks', limit: maxTasks });
      this.remove(oldest);
    }
  }

  /**
   * Forgets the oldest ended tasks until `bytes` more fit the owner's and the total bound. Running tasks hold
   * no result, and `maxResultBytesPerTask` is at most either bound, so room is always found.
   */
  private makeRoomForBytes(owner: string, bytes: number): void {
    const { maxResultBytesPerOwner, maxResultBytes } = this.limits;
    if (
      (this.bytesByOwner.get(owner) ?? 0) + bytes > maxResultBytesPerOwner ||
      this.totalBytes + bytes > maxResultBytes
    ) {
      this.sweep(true);
    }
    while ((this.bytesByOwner.get(owner) ?? 0) + bytes > maxResultBytesPerOwner) {
      const oldest = first(this.endedByOwner.get(owner));
      if (!oldest) break;
      this.remove(oldest);
    }
    while (this.totalBytes + bytes > maxResultBytes) {
      const oldest = first(this.ended);
      if (!oldest) break;
      this.remove(oldest);
    }
  }

  /** The bytes a result counts; one that is not JSON (a cycle, a BigInt) counts as the per-task bound. */
  private measure(result: unknown, statusMessage: string | undefined): number {
    let json: string;
    try {
      json = JSON.stringify(result ?? null) ?? 'null';
    } catch {
      return this.limits.maxResultBytesPerTask;
    }
    return taskResultBytes(json, statusMessage);
  }

  private read(taskId: string, owner: string): StoredTask | undefined {
    const stored = this.tasks.get(taskId);
    if (!stored || stored.record.owner !== owner) return undefined;
    const now = Date.now();
    if (stored.expiresAt <= now) {
      this.remove(stored);
      return undefined;
    }
    return this.settleLease(stored, now);
  }

  /** Marks a task that is not terminal and whose lease ran out as `failed` (its process was lost). */
  private settleLease(stored: StoredTask, now: number): StoredTask {
    if (!isTerminalTaskStatus(stored.record.status) && stored.leaseUntil <= now) {
      this.change(stored, 'failed', lostTaskMessage(stored.record.toolName));
    }
    return stored;
  }

  private change(stored: StoredTask, status: TaskStatus, statusMessage: string | undefined): TaskRecord {
    if (isTerminalTaskStatus(status) && !this.ended.has(stored)) this.markEnded(stored);
    const { statusMessage: _previous, ...rest } = stored.record;
    stored.record = {
      ...rest,
      status,
      ...(statusMessage === undefined ? {} : { statusMessage }),
      lastUpdatedAt: new Date().toISOString(),
    };
    for (const listener of [...(this.listeners.get(stored.record.taskId) ?? [])]) listener();
    return stored.record;
  }

  private markEnded(stored: StoredTask): void {
    this.ended.add(stored);
    const { owner } = stored.record;
    let owned = this.endedByOwner.get(owner);
    if (!owned) this.endedByOwner.set(owner, (owned = new Set()));
    owned.add(stored);
  }

  /** Forgets a task (expired, or the oldest ended one making room): it reads as unknown from now on. */
  private remove(stored: StoredTask): void {
    if (this.tasks.get(stored.record.taskId) !== stored) return;
    const { owner } = stored.record;
    this.tasks.delete(stored.record.taskId);
    this.ended.delete(stored);
    const ended = this.endedByOwner.get(owner);
    if (ended?.delete(stored) && ended.size === 0) this.endedByOwner.delete(owner);
    if (stored.bytes > 0) {
      this.totalBytes -= stored.bytes;
      const left = (this.bytesByOwner.get(owner) ?? 0) - stored.bytes;
      if (left > 0) this.bytesByOwner.set(owner, left);
      else this.bytesByOwner.delete(owner);
    }
    const owned = this.byOwner.get(owner);
    if (!owned) return;
    const index = owned.indexOf(stored);
    if (index >= 0) owned.splice(index, 1);
    if (owned.length === 0) this.byOwner.delete(owner);
  }

  /**
   * Drops expired tasks, at most once a second unless forced (at a bound, before a task still kept is
   * forgotten); forced, it also ends the tasks whose lease ran out, so that they can make room.
   */
  private sweep(force = false): void {
    const now = Date.now();
    if (!force && now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const stored of this.tasks.values()) {
      if (stored.expiresAt <= now) this.remove(stored);
      else if (force) this.settleLease(stored, now);
    }
  }
}

/** The first element of a set (the oldest inserted), or undefined. */
function first<Value>(set: Set<Value> | undefined): Value | undefined {
  if (!set) return undefined;
  for (const value of set) return value;
  return undefined;
}
