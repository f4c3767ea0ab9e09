import type { JsonSchema } from '../json-schema';

/** Maps an emitted `design:type` (String, Number, Boolean, Array, Date, Object…) to a schema. */
export function designTypeToSchema(designType: Function | undefined): JsonSchema {
  switch (designType) {
    case String:
      return { type: 'string' };
    case Number:
      return { type: 'number' };
    case Boolean:
      return { type: 'boolean' };
    case Array:
      return { type: 'array', items: {} };
    case Date:
      return { type: 'string', format: 'date-time' };
    default:
      return {};
  }
}
