import { ToolInputError } from '../../errors/tool-input-error';

/**
 * Checks that the options of a `fromX` factory name a model.
 *
 * @throws ToolInputError naming the factory when `options.model` is not a non-empty string.
 */
export function assertModelOption(factory: string, options: { model?: unknown } | undefined): void {
  if (typeof options?.model !== 'string' || options.model.trim() === '') {
    throw new ToolInputError(
      `${factory} needs { model }, the model id to call, e.g. ${factory}(client, { model: '…' }).`,
    );
  }
}
