import { isTerminalTaskStatus } from './task-record';
import { readSequenceCursor } from './read-sequence-cursor';
import type { TaskOutcome, TaskRecord, TaskStatus } from './task-record';
import { DEFAULT_TASK_PAGE_SIZE, lostTaskMessage } from './task-store';
import type { CreateTaskInput, TaskPage, TaskStore } from './task-store';
import { newTaskRecord } from './task-store';

interface StoredTask {
  record: TaskRecord;
  outcome?: TaskOutcome;
  readonly sequence: number;
  readonly expiresAt: number;
  leaseUntil: number;
}

/** Expired tasks are swept at most this often (every read also checks its own task). */
const SWEEP_INTERVAL_MS = 1_000;

/**
 * The default {@link TaskStore}: tasks in this process's memory, gone with it. Expired tasks are dropped
 * when read and swept as the store is used; a task whose lease ran out (its run stopped heartbeating)
 * reads as `failed`.
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, StoredTask>();
  private readonly byOwner = new Map<string, StoredTask[]>();
  private readonly listeners = new Map<string, Set<() => void>>();
  private sequence = 0;
  private lastSweep = 0;

  /** How many tasks are held (expired ones included until swept). */
  get size(): number {
    return this.tasks.size;
  }

  async create(input: CreateTaskInput): Promise<TaskRecord> {
    this.sweep();
    const now = Date.now();
    const record = newTaskRecord(input, now);
    const stored: StoredTask = {
      record,
      sequence: ++this.sequence,
      expiresAt: input.ttlMs === null ? Infinity : now + input.ttlMs,
      leaseUntil: now + input.leaseMs,
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

  async storeResult(
    taskId: string,
    owner: string,
    status: 'completed' | 'failed',
    result: unknown,
    statusMessage?: string,
  ): Promise<TaskRecord | null> {
    const stored = this.read(taskId, owner);
    if (!stored || isTerminalTaskStatus(stored.record.status)) return null;
    stored.outcome = { result };
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

  private remove(stored: StoredTask): void {
    this.tasks.delete(stored.record.taskId);
    const owned = this.byOwner.get(stored.record.owner);
    if (!owned) return;
    const index = owned.indexOf(stored);
    if (index >= 0) owned.splice(index, 1);
    if (owned.length === 0) this.byOwner.delete(stored.record.owner);
  }

  private sweep(): void {
    const now = Date.now();
    if (now - this.lastSweep < SWEEP_INTERVAL_MS) return;
    this.lastSweep = now;
    for (const stored of this.tasks.values()) if (stored.expiresAt <= now) this.remove(stored);
  }
}
