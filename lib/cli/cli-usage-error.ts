import { ToolInputError } from '../errors/tool-input-error';

/**
 * A command line that cannot work as given (options that contradict each other, a value out of range): the
 * CLI prints it like commander's own usage errors and exits with the usage code (2), before anything runs.
 */
export class CliUsageError extends ToolInputError {
  override readonly name: string = 'CliUsageError';
  override readonly code: string = 'CLI_USAGE';
}
