import { ProtolinkError } from './protolink-error';

/** Bad arguments or configuration given to a tool (the seed's ValueError). */
export class ToolInputError extends ProtolinkError {
  override readonly name: string = 'ToolInputError';
  override readonly code: string = 'TOOL_INPUT';
}
