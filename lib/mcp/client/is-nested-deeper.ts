/**
 * Whether a JSON value has an object or array more than `maxDepth` levels below it (the value itself is level
 * 0). Walks with its own stack, so a value nested far deeper than the call stack allows is answered too.
 */
export function isNestedDeeper(value: unknown, maxDepth: number): boolean {
  if (typeof value !== 'object' || value === null) return false;
  // Two parallel stacks: no object per visited node on a path taken by every message from a server.
  const nodes: object[] = [value];
  const depths: number[] = [0];
  while (nodes.length > 0) {
    const node = nodes.pop() as object;
    const depth = depths.pop() as number;
    if (depth > maxDepth) return true;
    const children: readonly unknown[] = Array.isArray(node) ? node : Object.values(node);
    for (const child of children) {
      if (typeof child === 'object' && child !== null) {
        nodes.push(child);
        depths.push(depth + 1);
      }
    }
  }
  return false;
}
