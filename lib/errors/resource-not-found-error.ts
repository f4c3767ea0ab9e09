import type { ProtolinkErrorOptions } from './protolink-error';
import { ToolInputError } from './tool-input-error';

/** Options of {@link ResourceNotFoundError}. */
export interface ResourceNotFoundErrorOptions extends ProtolinkErrorOptions {
  /** The URI that was asked for. */
  uri: string;
  /** Why a template of the URI's shape did not take it (a value it may not hold), added to the message. */
  reason?: string;
}

/**
 * A resource URI that no `@Resource` or `@ResourceTemplate` of the agent serves (served as the MCP error
 * `-32002` with the URI in `data`).
 */
export class ResourceNotFoundError extends ToolInputError {
  override readonly name: string = 'ResourceNotFoundError';
  override readonly code: string = 'RESOURCE_NOT_FOUND';
  /** The URI that was asked for. */
  readonly uri: string;

  constructor(options: ResourceNotFoundErrorOptions) {
    super(
      `Resource not found: '${options.uri}'. No @Resource has this URI and no @ResourceTemplate matches it; list them with resources/list and resources/templates/list.${options.reason ? ` ${options.reason}` : ''}`,
      options,
    );
    this.uri = options.uri;
  }

  protected override details(): Record<string, unknown> {
    return { uri: this.uri };
  }
}
