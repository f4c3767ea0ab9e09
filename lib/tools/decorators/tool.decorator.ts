import { ToolDefinitionError } from '../../errors/tool-definition-error';
import { assertKnownOptions, defineKnownOptions } from '../../runtime/assert-known-options';
import { recordToolMethod } from '../metadata/tool-metadata';
import type { ToolOptions } from '../metadata/metadata-records';
import { readTaskSupport } from '../task-support';
import { assertToolName } from '../tool-name';
import {
  readOptionalCapabilities,
  assertOptionalKind,
  assertOptionalStringList,
} from './assert-decorator-options';

/** The options of `@Tool`, and advice for the names people pass instead. */
const TOOL_OPTIONS = defineKnownOptions<ToolOptions>(
  '@Tool()',
  {
    name: true,
    description: true,
    inputSchema: true,
    outputSchema: true,
    tags: true,
    examples: true,
    capabilities: true,
    actionBuilder: true,
    metadata: true,
    preserveSchema: true,
    validateOutput: true,
    task: true,
  },
  {
    args: "it is the original's legacy field map; declare the arguments with @Param on the method's parameters, or pass inputSchema (a JSON Schema or a DTO class) instead",
    parameters:
      "declare the arguments with @Param on the method's parameters, or pass inputSchema (a JSON Schema or a DTO class) instead",
    func: 'the decorated method is the function the tool runs; remove func',
  },
);

/**
 * Marks a method as a tool. The method's `@Param` parameters become the argument object; `scanTools`
 * (or `agent.addToolset`) turns it into a NativeTool bound to the instance.
 *
 * @throws ToolDefinitionError for a bad name, a missing description, an option of the wrong kind or not known,
 *   or a static method.
 */
export function Tool(options: ToolOptions): MethodDecorator {
  if (typeof options !== 'object' || options === null) {
    throw new ToolDefinitionError(
      "@Tool() needs options: @Tool({ name: 'book_hotel', description: 'Book a hotel room' }).",
    );
  }
  assertToolName(options.name, '@Tool()');
  assertKnownOptions(options, TOOL_OPTIONS, {
    where: `@Tool({ name: '${options.name}' })`,
    toolName: options.name,
  });
  if (typeof options.description !== 'string') {
    throw new ToolDefinitionError(
      `@Tool({ name: '${options.name}' }) needs a description string: say what the tool does and when to call it.`,
    );
  }
  const where = `@Tool({ name: '${options.name}' })`;
  assertOptionalStringList(options.tags, where, 'tags', "['travel']");
  const capabilities = readOptionalCapabilities(options.capabilities, where);
  assertOptionalKind(options.examples, where, 'examples', ['array'], 'a list of example argument objects');
  assertOptionalKind(
    options.inputSchema,
    where,
    'inputSchema',
    ['object', 'function'],
    'a JSON Schema object or a DTO class',
  );
  assertOptionalKind(
    options.outputSchema,
    where,
    'outputSchema',
    ['object', 'function'],
    'a JSON Schema object or a DTO class',
  );
  assertOptionalKind(
    options.actionBuilder,
    where,
    'actionBuilder',
    ['function'],
    'a function (args, context) => RunAction',
  );
  readTaskSupport(options.task, where);
  assertOptionalKind(options.metadata, where, 'metadata', ['object'], 'a plain object');
  // Capabilities are kept as read: an iterable such as a generator can only be read once.
  const frozen = Object.freeze(capabilities === undefined ? { ...options } : { ...options, capabilities });
  return (target, propertyKey) => {
    if (typeof target === 'function') {
      throw new ToolDefinitionError(
        `@Tool('${options.name}') is on the static method ${String(propertyKey)}; tools must be instance methods.`,
      );
    }
    if (typeof propertyKey === 'symbol') {
      throw new ToolDefinitionError(
        `@Tool('${options.name}') is on a symbol-named method; use a string-named method.`,
      );
    }
    const classTarget = (target as object).constructor;
    if (!recordToolMethod(classTarget, { methodName: propertyKey, options: frozen })) {
      throw new ToolDefinitionError(`${classTarget.name}.${propertyKey} has two @Tool decorators; keep one.`);
    }
  };
}
