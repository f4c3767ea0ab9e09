/**
 * Runs once a call is authorized (validated, allowed by the policy, approved, within budget) and before its
 * tool starts: a task is created there, so a refused call never creates one. A rejection refuses the call.
 */
export type ToolLaunchHook = (toolName: string) => void | Promise<void>;

const hooks = new WeakMap<object, ToolLaunchHook>();

/** Attaches the launch hook of one call to the context the call runs with. */
export function attachToolLaunchHook(context: object, hook: ToolLaunchHook): void {
  hooks.set(context, hook);
}

/** Whether a launch hook waits on this context. */
export function hasToolLaunchHook(context: object): boolean {
  return hooks.has(context);
}

/** Removes and returns the context's launch hook (each runs once, for the call it was attached for). */
export function takeToolLaunchHook(context: object): ToolLaunchHook | undefined {
  const hook = hooks.get(context);
  if (hook) hooks.delete(context);
  return hook;
}
