import type { MCPStoredAuth, MCPTokenStore } from './mcp-token-store';

/** Keeps sign-in state in this process only (the default): a restart signs in again. */
export class MemoryTokenStore implements MCPTokenStore {
  private readonly entries = new Map<string, MCPStoredAuth>();

  /** The stored state of a server (a copy), or `undefined`. */
  load(serverUrl: string): MCPStoredAuth | undefined {
    const entry = this.entries.get(serverUrl);
    return entry === undefined ? undefined : structuredClone(entry);
  }

  /** Replaces the stored state of a server. */
  save(serverUrl: string, data: MCPStoredAuth): void {
    this.entries.set(serverUrl, structuredClone(data));
  }

  /** Forgets a server; returns whether something was stored. */
  delete(serverUrl: string): boolean {
    return this.entries.delete(serverUrl);
  }

  /** Keeps the contents out of `console.log` and `util.inspect`. */
  [Symbol.for('nodejs.util.inspect.custom')](): string {
    return `MemoryTokenStore { ${this.entries.size} server(s) }`;
  }

  /** Keeps the contents out of `JSON.stringify`. */
  toJSON(): Record<string, unknown> {
    return { store: 'memory', servers: this.entries.size };
  }
}
