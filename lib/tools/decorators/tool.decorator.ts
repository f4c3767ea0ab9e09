import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { recordToolMethod } from '../metadata/tool-metadata';
import type { ToolOptions } from '../metadata/metadata-records';
import { assertToolName } from '../tool-name';

/**
 * Marks a method as a tool. The method's `@Param` parameters become the argument object; `scanTools`
 * (or `agent.addToolset`) turns it into a NativeTool bound to the instance.
 *
 * @throws ToolDefinitionError for a bad name, a missing description or a static method.
 */
export function Tool(options: ToolOptions): MethodDecorator {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError("@Tool() needs options: @Tool({ name: 'book_hotel', description: 'Book a hotel room' }).");
  }
  assertToolName(options.name, '@Tool()');
  if (typeof options.description !== 'string') {
    throw new ToolDefinitionError(`@Tool({ name: '${options.name}' }) needs a description string: say what the tool does and when to call it.`);
  }
  const frozen = Object.freeze({ ...options });
  return (target, propertyKey) => {
    if (typeof target === 'function') {
      throw new ToolDefinitionError(`@Tool('${options.name}') is on the static method ${String(propertyKey)}; tools must be instance methods.`);
    }
    if (typeof propertyKey === 'symbol') {
      throw new ToolDefinitionError(`@Tool('${options.name}') is on a symbol-named method; use a string-named method.`);
    }
    const classTarget = (target as object).constructor;
    if (!recordToolMethod(classTarget, { methodName: propertyKey, options: frozen })) {
      throw new ToolDefinitionError(`${classTarget.name}.${propertyKey} has two @Tool decorators; keep one.`);
    }
  };
}
