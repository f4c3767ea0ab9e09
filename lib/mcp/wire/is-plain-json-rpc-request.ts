/**
 * Whether a parsed message is a JSON-RPC request of the plainest form: an object with exactly `jsonrpc: "2.0"`,
 * an `id` (a string or a safe integer), a string `method` and, optionally, `params` as a plain object without
 * `_meta`. Every message it accepts is one the SDK's `JSONRPCRequestSchema` (strict) accepts, which the
 * endpoint then need not run: the zod pass cost about 3% of a served call. Anything else (notifications,
 * responses, `_meta`, anything unusual) goes to the SDK's schema as before; each message of a batch is
 * judged on its own.
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
  // Read as the schema reads them (through the prototype chain), so an inherited value is judged alike.
  const params = record.params;
  if (params === undefined) return true;
  return isPlainObject(params) && (params as { _meta?: unknown })._meta === undefined;
}

/** An object whose prototype is Object.prototype, as JSON.parse makes them. */
function isPlainObject(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Object.getPrototypeOf(value) === Object.prototype;
}
