/**
 * Whether a parsed message is a JSON-RPC request of the plainest form: an object with exactly `jsonrpc: "2.0"`,
 * an `id` (a string or a safe integer), a string `method` and, optionally, `params` as a plain object without
 * `_meta`. Every message it accepts is one the SDK's `JSONRPCRequestSchema` (strict) accepts, which the
 * endpoint then need not run: the zod pass cost about 3% of a served call. Anything else (notifications,
 * responses, `_meta`, batches of unusual shape) goes to the SDK's schema as before.
 */
export function isPlainJsonRpcRequest(message: unknown): boolean {
  if (!isPlainObject(message)) return false;
  const record = message as Record<string, unknown>;
  for (const key in record) {
    if (key !== 'jsonrpc' && key !== 'id' && key !== 'method' && key !== 'params') return false;
  }
  if (record.jsonrpc !== '2.0' || typeof record.method !== 'string') return false;
  const id = record.id;
  if (typeof id !== 'string' && !Number.isSafeInteger(id)) return false;
  if (!Object.hasOwn(record, 'params')) return true;
  const params = record.params;
  return isPlainObject(params) && !Object.hasOwn(params as object, '_meta');
}

/** An object whose prototype is Object.prototype, as JSON.parse makes them. */
function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
