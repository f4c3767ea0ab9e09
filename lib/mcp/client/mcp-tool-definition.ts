import type { TaskSupport } from '../../tools/task-support';
import type { JsonSchema } from '../../tools/json-schema';

/** What one remote tool definition looks like to the `capabilities` callback and to `listTools()`. */
export interface MCPToolDefinition {
  /** The name on the server, unchanged. */
  readonly name: string;
  /** The server's title, when it gave one. */
  readonly title?: string;
  /** The description (`''` when absent). */
  readonly description: string;
  /** The server's input schema, unchanged (`{}` when absent). */
  readonly inputSchema: JsonSchema;
  /** The server's output schema, when it declared one. */
  readonly outputSchema?: JsonSchema;
  /** The server's hints (`readOnlyHint`, `idempotentHint`, `destructiveHint`, `openWorldHint`); untrusted. */
  readonly annotations: Readonly<Record<string, unknown>>;
  /** The server's `execution.taskSupport`, when it is `optional` or `required` (absent: `forbidden`). */
  readonly taskSupport?: TaskSupport;
}
