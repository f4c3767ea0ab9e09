import { resolveLocalRef } from './resolve-local-ref';

/** Keywords that apply one subschema to the value itself: following them consumes no input. */
const IN_PLACE_SCHEMA = ['not', 'if', 'then', 'else'] as const;
/** Keywords that apply a list of subschemas to the value itself. */
const IN_PLACE_LISTS = ['allOf', 'anyOf', 'oneOf'] as const;
/** Keywords that apply, by property name, subschemas to the value itself (`dependencies`: its schema form). */
const IN_PLACE_MAPS = ['dependentSchemas', 'dependencies'] as const;
/** Keywords whose local reference applies the target to the value itself. */
const REFERENCES = ['$ref', '$dynamicRef', '$recursiveRef'] as const;
/** Keywords that apply one subschema to a part of the value (an item, a property, a key). */
const PART_SCHEMA = [
  'additionalProperties',
  'propertyNames',
  'unevaluatedProperties',
  'additionalItems',
  'unevaluatedItems',
  'contains',
  'contentSchema',
] as const;
/** Keywords that apply a list of subschemas to parts of the value. */
const PART_LISTS = ['prefixItems', 'items'] as const;
/** Keywords that apply, by property name, subschemas to parts of the value. */
const PART_MAPS = ['properties', 'patternProperties'] as const;

/**
 * Where a schema node was reached: the JSON pointer is built from these links only for a report (built
 * eagerly, the pointers of a deeply nested schema would cost time quadratic in its depth).
 */
interface Location {
  readonly parent: Location | null;
  readonly segment: string;
}

/** One subschema reached from a schema node. */
interface Step {
  readonly node: object;
  readonly location: Location;
}

const ROOT: Location = { parent: null, segment: '#' };

/**
 * Returns a cycle of subschemas that a validator can follow without consuming any of the value (through
 * `allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`, `dependentSchemas`, `dependencies` and local
 * `$ref`s), as the JSON pointers of its nodes with the first repeated last (`['#', '#/allOf/0', '#']`);
 * null when there is none. Such a schema would check the same value against itself forever. A cycle that
 * passes through `properties`, `items`, `additionalProperties` or another keyword that descends into the
 * value (a recursive tree) is not reported: the value's depth bounds it. Only subschemas reachable from
 * the root count; objects are followed by identity (a schema object nested in itself is a cycle too), so
 * this always ends, and it is iterative, so a deeply nested schema cannot overflow the stack.
 */
export function findInPlaceCycle(schema: unknown): readonly string[] | null {
  if (!isSchemaObject(schema)) return null;
  const root = schema as Record<string, unknown>;
  const locations = collectReachable(root);
  const done = new Set<object>();
  for (const start of locations.keys()) {
    if (done.has(start)) continue;
    // Depth-first over in-place steps only: a step back to a node still on the path closes a cycle.
    const path: Array<{ node: object; steps: Step[]; next: number }> = [];
    const onPath = new Map<object, number>();
    const enter = (node: object): void => {
      onPath.set(node, path.length);
      path.push({ node, steps: inPlaceSteps(node, locations.get(node) as Location, root), next: 0 });
    };
    enter(start);
    while (path.length > 0) {
      const frame = path[path.length - 1];
      if (frame.next === frame.steps.length) {
        path.pop();
        onPath.delete(frame.node);
        done.add(frame.node);
        continue;
      }
      const step = frame.steps[frame.next];
      frame.next += 1;
      const index = onPath.get(step.node);
      if (index !== undefined) {
        return [...path.slice(index), path[index]].map((entry) =>
          toPointer(locations.get(entry.node) as Location),
        );
      }
      if (!done.has(step.node)) enter(step.node);
    }
  }
  return null;
}

/** Every schema node reachable from the root, by any keyword, with where it was first reached. */
function collectReachable(root: Record<string, unknown>): Map<object, Location> {
  const locations = new Map<object, Location>([[root, ROOT]]);
  const pending: Step[] = [{ node: root, location: ROOT }];
  while (pending.length > 0) {
    const { node, location } = pending.pop() as Step;
    for (const step of [...inPlaceSteps(node, location, root), ...partSteps(node, location)]) {
      if (locations.has(step.node)) continue;
      locations.set(step.node, step.location);
      pending.push(step);
    }
  }
  return locations;
}

function toPointer(location: Location): string {
  const segments: string[] = [];
  for (let current: Location | null = location; current !== null; current = current.parent)
    segments.push(current.segment);
  return segments.reverse().join('/');
}

function inPlaceSteps(node: object, pointer: Location, root: Record<string, unknown>): Step[] {
  const record = node as Record<string, unknown>;
  const steps: Step[] = [];
  for (const keyword of IN_PLACE_SCHEMA) addSchema(steps, record[keyword], keyword, pointer);
  for (const keyword of IN_PLACE_LISTS) addList(steps, record[keyword], keyword, pointer);
  for (const keyword of IN_PLACE_MAPS) addMap(steps, record[keyword], keyword, pointer);
  for (const keyword of REFERENCES) {
    const reference = record[keyword];
    if (typeof reference !== 'string') continue;
    const target = resolveLocalRef(root, reference);
    if (isSchemaObject(target)) steps.push({ node: target, location: { parent: null, segment: reference } });
  }
  return steps;
}

function partSteps(node: object, pointer: Location): Step[] {
  const record = node as Record<string, unknown>;
  const steps: Step[] = [];
  for (const keyword of PART_SCHEMA) addSchema(steps, record[keyword], keyword, pointer);
  for (const keyword of PART_LISTS) {
    if (Array.isArray(record[keyword])) addList(steps, record[keyword], keyword, pointer);
    else addSchema(steps, record[keyword], keyword, pointer);
  }
  for (const keyword of PART_MAPS) addMap(steps, record[keyword], keyword, pointer);
  return steps;
}

function addSchema(steps: Step[], value: unknown, keyword: string, pointer: Location): void {
  if (isSchemaObject(value)) steps.push({ node: value, location: { parent: pointer, segment: keyword } });
}

function addList(steps: Step[], value: unknown, keyword: string, pointer: Location): void {
  if (!Array.isArray(value)) return;
  value.forEach((item, index) => addSchema(steps, item, `${keyword}/${index}`, pointer));
}

function addMap(steps: Step[], value: unknown, keyword: string, pointer: Location): void {
  if (!isSchemaObject(value)) return;
  for (const [name, item] of Object.entries(value)) {
    addSchema(steps, item, `${keyword}/${name.replace(/~/g, '~0').replace(/\//g, '~1')}`, pointer);
  }
}

function isSchemaObject(value: unknown): value is object {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
