import { ProtolinkError } from './protolink-error';

/** A tool declared wrongly; found at decoration, construction or registration time. */
export class ToolDefinitionError extends ProtolinkError {
  override readonly name: string = 'ToolDefinitionError';
  override readonly code: string = 'TOOL_DEFINITION';
}
