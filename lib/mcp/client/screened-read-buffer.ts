import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { ToolRuntimeError } from '../../errors/tool-runtime-error';
import type { McpMessageScreen } from './mcp-message-screen';

/**
 * The line buffer of a stdio transport (the SDK's `ReadBuffer`, same interface and same overflow error),
 * each line screened by an {@link McpMessageScreen} instead of parsed by the SDK's schema alone: a refused
 * answer becomes an error answer to its request, a refused request of the server is answered with `reply`,
 * and anything else refused throws, which the transport reports to `onerror` and reads on (as the SDK does
 * with a malformed line).
 */
export class ScreenedReadBuffer {
  private buffer: Buffer | undefined;

  constructor(
    private readonly maxBufferSize: number,
    private readonly screen: McpMessageScreen,
    private readonly reply: (message: JSONRPCMessage) => void,
  ) {}

  /**
   * Adds a chunk of the server's stdout.
   *
   * @throws ToolRuntimeError past `maxBufferSize`, its message holding the SDK's "ReadBuffer exceeded" (the
   * session watches for it to fail the waiting calls).
   */
  append(chunk: Buffer): void {
    const size = (this.buffer?.length ?? 0) + chunk.length;
    if (size > this.maxBufferSize) {
      this.clear();
      throw new ToolRuntimeError(
        `ReadBuffer exceeded maximum size of ${this.maxBufferSize} bytes: the MCP server sent a longer line.`,
      );
    }
    this.buffer = this.buffer ? Buffer.concat([this.buffer, chunk]) : chunk;
  }

  /**
   * The next complete message, or null until a whole line has arrived.
   *
   * @throws ToolRuntimeError for a line dropped.
   */
  readMessage(): JSONRPCMessage | null {
    if (!this.buffer) return null;
    const index = this.buffer.indexOf('\n');
    if (index === -1) return null;
    const line = this.buffer.toString('utf8', 0, index).replace(/\r$/, '');
    this.buffer = this.buffer.subarray(index + 1);
    const screening = this.screen.screenText(line);
    if (screening.verdict === 'deliver') return screening.message;
    if (screening.reply) this.reply(screening.reply);
    throw screening.error;
  }

  /** Forgets what was buffered. */
  clear(): void {
    this.buffer = undefined;
  }
}
