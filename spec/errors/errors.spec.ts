import {
  ActionDeniedError,
  ActionPolicyError,
  ApprovalRequiredError,
  BudgetExceededError,
  ProtolinkError,
  ToolCancelledError,
  ToolDefinitionError,
  ToolInputError,
  ToolNotFoundError,
  ToolRuntimeError,
  ToolValidationError,
  TaskResultTooLargeError,
  TooManyTasksError,
  UnsafeUrlError,
} from '../../lib/errors';

interface ErrorCase {
  build: (cause?: unknown) => ProtolinkError;
  name: string;
  code: string;
  chain: Function[];
}

const cases: ErrorCase[] = [
  {
    build: (cause) => new ProtolinkError('root problem', { cause }),
    name: 'ProtolinkError',
    code: 'PROTOLINK_ERROR',
    chain: [],
  },
  {
    build: (cause) => new ToolInputError('bad input', { cause }),
    name: 'ToolInputError',
    code: 'TOOL_INPUT',
    chain: [],
  },
  {
    build: (cause) =>
      new ToolValidationError({ issues: [{ path: 'a', message: 'must be an integer' }], cause }),
    name: 'ToolValidationError',
    code: 'TOOL_VALIDATION',
    chain: [ToolInputError],
  },
  {
    build: (cause) => new ToolNotFoundError({ toolName: 'nope', availableTools: ['add'], cause }),
    name: 'ToolNotFoundError',
    code: 'TOOL_NOT_FOUND',
    chain: [ToolInputError],
  },
  {
    build: (cause) =>
      new UnsafeUrlError('http://127.0.0.1/ is not public', { reason: 'loopback address', cause }),
    name: 'UnsafeUrlError',
    code: 'UNSAFE_URL',
    chain: [ToolInputError],
  },
  {
    build: (cause) => new ToolRuntimeError('provider failed', { cause }),
    name: 'ToolRuntimeError',
    code: 'TOOL_RUNTIME',
    chain: [],
  },
  {
    build: (cause) => new ToolDefinitionError('declared wrongly', { cause }),
    name: 'ToolDefinitionError',
    code: 'TOOL_DEFINITION',
    chain: [],
  },
  {
    build: (cause) => new ActionPolicyError('stopped', { cause }),
    name: 'ActionPolicyError',
    code: 'ACTION_POLICY',
    chain: [],
  },
  {
    build: (cause) => new ActionDeniedError('denied', { cause }),
    name: 'ActionDeniedError',
    code: 'ACTION_DENIED',
    chain: [ActionPolicyError],
  },
  {
    build: (cause) => new ApprovalRequiredError('needs approval', { cause }),
    name: 'ApprovalRequiredError',
    code: 'APPROVAL_REQUIRED',
    chain: [ActionPolicyError],
  },
  {
    build: (cause) => new ToolCancelledError('canceled', { cause }),
    name: 'ToolCancelledError',
    code: 'TOOL_CANCELLED',
    chain: [],
  },
  {
    build: (cause) =>
      new BudgetExceededError('out of tool calls', { limit: 'maxToolCalls', maximum: 2, cause }),
    name: 'BudgetExceededError',
    code: 'BUDGET_EXCEEDED',
    chain: [],
  },
  {
    build: (cause) => new TooManyTasksError({ toolName: 'crawl', bound: 'maxTasks', limit: 3, cause }),
    name: 'TooManyTasksError',
    code: 'TOO_MANY_TASKS',
    chain: [ToolRuntimeError],
  },
  {
    build: (cause) => new TaskResultTooLargeError({ toolName: 'export', bytes: 2_000, limit: 1_000, cause }),
    name: 'TaskResultTooLargeError',
    code: 'TASK_RESULT_TOO_LARGE',
    chain: [ToolRuntimeError],
  },
];

describe('ProtolinkError hierarchy', () => {
  describe.each(cases)('$name', ({ build, name, code, chain }) => {
    it('has a literal name and a string code', () => {
      const error = build();
      expect(error.name).toBe(name);
      expect(error.code).toBe(code);
      expect(error.constructor.name).toBe(name);
      expect(String(error)).toMatch(new RegExp(`^${name}: `));
    });

    it('extends Error, ProtolinkError and its parent classes', () => {
      const error = build();
      expect(error).toBeInstanceOf(Error);
      expect(error).toBeInstanceOf(ProtolinkError);
      for (const parent of chain) expect(error).toBeInstanceOf(parent);
    });

    it('keeps the cause when one is given and has none otherwise', () => {
      const cause = new TypeError('socket hang up');
      expect(build(cause).cause).toBe(cause);
      expect('cause' in build()).toBe(false);
    });

    it('serializes to JSON without the stack or the cause', () => {
      const error = build(new Error('secret internal detail'));
      const json = error.toJSON();
      expect(json).toMatchObject({ name, code, message: error.message });
      expect(json).not.toHaveProperty('stack');
      expect(json).not.toHaveProperty('cause');
      const text = JSON.stringify(error);
      expect(JSON.parse(text)).toEqual(json);
      expect(text).not.toContain('secret internal detail');
      expect(text).not.toContain('at ');
    });
  });

  it('keeps the branches apart: policy, runtime and definition errors are not input errors', () => {
    expect(new ToolRuntimeError('x')).not.toBeInstanceOf(ToolInputError);
    expect(new ToolDefinitionError('x')).not.toBeInstanceOf(ToolInputError);
    expect(new ActionDeniedError('x')).not.toBeInstanceOf(ToolInputError);
    expect(new ToolCancelledError('x')).not.toBeInstanceOf(ActionPolicyError);
    expect(new BudgetExceededError('x', { limit: 'maxSteps', maximum: 1 })).not.toBeInstanceOf(
      ToolRuntimeError,
    );
    expect(new ToolInputError('x')).not.toBeInstanceOf(ToolValidationError);
  });
});

describe('ProtolinkError', () => {
  describe('toJSON', () => {
    it('includes the tool name when there is one', () => {
      expect(new ToolInputError('bad', { toolName: 'add' }).toJSON()).toEqual({
        name: 'ToolInputError',
        code: 'TOOL_INPUT',
        message: 'bad',
        toolName: 'add',
      });
      expect(new ToolInputError('bad').toJSON()).not.toHaveProperty('toolName');
    });
  });
});

describe('ToolNotFoundError', () => {
  it('lists the tools that exist, sorted, in the message and the JSON form', () => {
    const error = new ToolNotFoundError({
      toolName: 'serach',
      availableTools: ['search', 'add', 'book_hotel'],
    });
    expect(error.message).toBe("Unknown tool 'serach'. Available tools: add, book_hotel, search.");
    expect(error.toolName).toBe('serach');
    expect(error.availableTools).toEqual(['add', 'book_hotel', 'search']);
    expect(Object.isFrozen(error.availableTools)).toBe(true);
    expect(error.toJSON()).toEqual({
      name: 'ToolNotFoundError',
      code: 'TOOL_NOT_FOUND',
      message: error.message,
      toolName: 'serach',
      availableTools: ['add', 'book_hotel', 'search'],
    });
  });

  it('says how to add a tool when none exist', () => {
    const error = new ToolNotFoundError({ toolName: 'add', availableTools: [] });
    expect(error.message).toBe(
      "Unknown tool 'add'. No tools are registered; add one with addTool() or addToolset().",
    );
  });

  it('does not keep a reference to the caller list', () => {
    const names = ['b', 'a'];
    const error = new ToolNotFoundError({ toolName: 'c', availableTools: names });
    names.push('c');
    expect(error.availableTools).toEqual(['a', 'b']);
    expect(names).toEqual(['b', 'a', 'c']);
  });
});

describe('ToolValidationError', () => {
  it('lists every issue with its path in the message, naming the tool', () => {
    const error = new ToolValidationError({
      toolName: 'book_hotel',
      issues: [
        { path: 'booking.guests', message: 'must be >= 1' },
        { path: 'booking.location', message: 'is required' },
      ],
    });
    expect(error.message).toBe(
      "Invalid arguments for tool 'book_hotel': booking.guests: must be >= 1; booking.location: is required",
    );
    expect(error.issues).toEqual([
      { path: 'booking.guests', message: 'must be >= 1' },
      { path: 'booking.location', message: 'is required' },
    ]);
  });

  it('shows a root issue without a path and works without a tool name', () => {
    const error = new ToolValidationError({
      issues: [{ path: '', message: 'the arguments must be one JSON object, got string' }],
    });
    expect(error.message).toBe('Invalid arguments: the arguments must be one JSON object, got string');
  });

  it('freezes its issues and copies them, so neither side can change the other', () => {
    const issues = [{ path: 'a', message: 'must be an integer' }];
    const error = new ToolValidationError({ issues });
    issues[0].message = 'changed';
    expect(error.issues[0].message).toBe('must be an integer');
    expect(Object.isFrozen(error.issues)).toBe(true);
    expect(Object.isFrozen(error.issues[0])).toBe(true);
    const json = error.toJSON() as { issues: { path: string; message: string }[] };
    json.issues[0].message = 'changed too';
    expect(error.issues[0].message).toBe('must be an integer');
    expect(json).toMatchObject({ name: 'ToolValidationError', code: 'TOOL_VALIDATION' });
  });
});

describe('UnsafeUrlError', () => {
  it('keeps the reason and serializes it', () => {
    const error = new UnsafeUrlError(
      'http://10.0.0.1/ points to a private address; only public hosts can be fetched.',
      {
        reason: 'private address',
        toolName: 'fetch_url',
      },
    );
    expect(error.reason).toBe('private address');
    expect(error.toJSON()).toEqual({
      name: 'UnsafeUrlError',
      code: 'UNSAFE_URL',
      message: error.message,
      toolName: 'fetch_url',
      reason: 'private address',
    });
  });
});

describe('ToolRuntimeError', () => {
  it('keeps provider, status and retryable and serializes them', () => {
    const error = new ToolRuntimeError('Brave answered 503; try again later.', {
      provider: 'brave',
      status: 503,
      retryable: true,
    });
    expect(error.toJSON()).toEqual({
      name: 'ToolRuntimeError',
      code: 'TOOL_RUNTIME',
      message: 'Brave answered 503; try again later.',
      provider: 'brave',
      status: 503,
      retryable: true,
    });
  });

  it('is not retryable by default', () => {
    const error = new ToolRuntimeError('failed');
    expect(error.retryable).toBe(false);
    expect(error.toJSON()).toEqual({
      name: 'ToolRuntimeError',
      code: 'TOOL_RUNTIME',
      message: 'failed',
      retryable: false,
    });
  });
});

describe('ActionPolicyError', () => {
  it('keeps the decision and the action but leaves them out of the JSON form', () => {
    const decision = { effect: 'deny', reason: 'records.write is denied' };
    const action = { kind: 'tool.call', name: 'book_hotel' };
    const error = new ActionDeniedError('Denied: records.write is denied.', {
      decision,
      action,
      toolName: 'book_hotel',
    });
    expect(error.decision).toBe(decision);
    expect(error.action).toBe(action);
    expect(error.toJSON()).toEqual({
      name: 'ActionDeniedError',
      code: 'ACTION_DENIED',
      message: error.message,
      toolName: 'book_hotel',
    });
  });
});

describe('ToolCancelledError', () => {
  it('keeps the reason and a result that arrived after cancellation', () => {
    const error = new ToolCancelledError('The run was canceled: user pressed stop.', {
      reason: 'user pressed stop',
      hasResult: true,
      result: { id: 7 },
    });
    expect(error.reason).toBe('user pressed stop');
    expect(error.hasResult).toBe(true);
    expect(error.result).toEqual({ id: 7 });
    expect(error.toJSON()).toEqual({
      name: 'ToolCancelledError',
      code: 'TOOL_CANCELLED',
      message: error.message,
      hasResult: true,
      reason: 'user pressed stop',
    });
  });

  it('has no result by default', () => {
    const error = new ToolCancelledError('canceled');
    expect(error.hasResult).toBe(false);
    expect(error.result).toBeUndefined();
  });
});

describe('BudgetExceededError', () => {
  it('keeps the limit, the maximum, what was used and the trace', () => {
    const trace = [{ tool: 'add' }];
    const error = new BudgetExceededError('The run may make at most 2 tool calls.', {
      limit: 'maxToolCalls',
      maximum: 2,
      used: 2,
      trace,
    });
    expect(error.trace).toBe(trace);
    expect(error.toJSON()).toEqual({
      name: 'BudgetExceededError',
      code: 'BUDGET_EXCEEDED',
      message: error.message,
      limit: 'maxToolCalls',
      maximum: 2,
      used: 2,
    });
  });

  it('leaves used out of the JSON form when unknown', () => {
    expect(new BudgetExceededError('x', { limit: 'maxSteps', maximum: 3 }).toJSON()).not.toHaveProperty(
      'used',
    );
  });
});
