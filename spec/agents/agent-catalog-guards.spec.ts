import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { ResourceNotFoundError } from '../../lib/errors/resource-not-found-error';
import { ToolCancelledError } from '../../lib/errors/tool-cancelled-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import type { ApprovalRequest } from '../../lib/policy/approval-request';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { RunContext } from '../../lib/runtime/run-context';
import { createGuardedCatalog } from '../fixtures/catalog/guarded-catalog';
import { NotesCatalog } from '../fixtures/catalog/notes-catalog';

const card = { name: 'files', description: 'Files', url: 'runtime://files' };
const FILE_TEMPLATE = { type: 'ref/resource', uri: 'files://{folder}/{name}' } as const;
const EMAIL_PROMPT = { type: 'ref/prompt', name: 'customer_email' } as const;
const DENY_ALL = { 'files.read': 'deny', 'files.secret': 'deny', 'customers.read': 'deny' } as const;

async function rejection(promise: Promise<unknown>): Promise<Error> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(Error);
  return error as Error;
}

describe('Agent catalog guards', () => {
  describe('readResource', () => {
    it.each([
      ['files://..%2F..%2Fetc/..%2F..%2Fpasswd', '{folder}', '"../../etc"', "contains '/'"],
      ['files://etc/pass%00wd', '{name}', '"pass\\u0000wd"', 'contains a control character'],
      ['files://..%5Cwin/ini', '{folder}', '"..\\\\win"', "contains '\\'"],
      ['files://%2E%2E/passwd', '{folder}', '".."', "is '..'"],
    ])(
      'does not read %s: no template matches, and the method never runs',
      async (uri, expression, value, problem) => {
        const guarded = createGuardedCatalog();
        const agent = new Agent({ card, toolsets: [guarded.service] });
        const error = await rejection(agent.readResource(uri));
        expect(error).toBeInstanceOf(ResourceNotFoundError);
        expect((error as ResourceNotFoundError).uri).toBe(uri);
        expect(error.message).toContain(`Resource not found: '${uri}'.`);
        expect(error.message).toContain(
          `The template 'files://{folder}/{name}' has its shape, but its ${expression} would be ${value}, which ${problem}: a {x}, {/x} or {.x} value is one path segment`,
        );
        expect(guarded.reads).toEqual([]);
      },
    );

    it('reads the docs example the same way: notes://{folder}/{id} refuses a folder that is a path', async () => {
      const agent = new Agent({ card, toolsets: [new NotesCatalog()] });
      await expect(agent.readResource('notes://..%2F..%2Fetc/1')).rejects.toThrow(ResourceNotFoundError);
      await expect(agent.readResource('notes://inbox/1')).resolves.toBeDefined();
    });

    it('passes a {+x} value to the method decoded, for the method to check', async () => {
      const guarded = createGuardedCatalog();
      const agent = new Agent({ card, toolsets: [guarded.service] });
      const result = await agent.readResource('docs://..%2F..%2Fetc/passwd');
      expect(result.contents[0]).toEqual({ uri: 'docs://..%2F..%2Fetc/passwd', text: '../../etc/passwd' });
      expect(guarded.reads).toEqual(['doc|../../etc/passwd']);
    });
  });

  describe('complete', () => {
    it('refuses a template or prompt completion the policy denies, before the provider runs', async () => {
      const guarded = createGuardedCatalog();
      const agent = new Agent({
        card,
        toolsets: [guarded.service],
        policy: new CapabilityPolicy(DENY_ALL),
      });
      const template = await rejection(agent.complete(FILE_TEMPLATE, { name: 'name', value: 'p' }));
      expect(template).toBeInstanceOf(ActionDeniedError);
      expect(template.message).toMatch(/^Action 'files:\/\/\{folder\}\/\{name\}' denied: /);
      const prompt = await rejection(agent.complete(EMAIL_PROMPT, { name: 'customer', value: 'A' }));
      expect(prompt).toBeInstanceOf(ActionDeniedError);
      expect(prompt.message).toMatch(/^Action 'customer_email' denied: /);
      expect(guarded.providerCalls).toEqual([]);
    });

    it('asks the approver with the action of a read marked as a completion, and fails closed without one', async () => {
      const guarded = createGuardedCatalog();
      const policy = new CapabilityPolicy({ 'files.read': 'require_approval' });
      const unapproved = new Agent({ card, toolsets: [guarded.service], policy });
      await expect(
        unapproved.complete(FILE_TEMPLATE, { name: 'name', value: 'p' }, { arguments: { folder: 'etc' } }),
      ).rejects.toThrow(ApprovalRequiredError);
      expect(guarded.providerCalls).toEqual([]);
      const asked: ApprovalRequest[] = [];
      const approved = new Agent({
        card,
        toolsets: [guarded.service],
        policy,
        approvalHandler: (request) => {
          asked.push(request);
          return true;
        },
      });
      await expect(
        approved.complete(FILE_TEMPLATE, { name: 'name', value: 'p' }, { arguments: { folder: 'etc' } }),
      ).resolves.toEqual({ values: ['passwd', 'profile'], total: 2, hasMore: false });
      expect(asked).toHaveLength(1);
      expect(asked[0].action.kind).toBe('resource.read');
      expect(asked[0].action.name).toBe('files://{folder}/{name}');
      expect(asked[0].action.capabilities).toEqual(['files.read']);
      expect(asked[0].action.payload).toEqual({
        arguments: { folder: 'etc' },
        completion: { argument: 'name', value: 'p' },
      });
    });

    it("narrows the policy by the context's permissions and gives the provider that context", async () => {
      const guarded = createGuardedCatalog();
      const agent = new Agent({ card, toolsets: [guarded.service] });
      const narrowed = new RunContext({ permissions: { 'customers.read': 'deny' } });
      await expect(
        agent.complete(EMAIL_PROMPT, { name: 'customer', value: 'a' }, { context: narrowed }),
      ).rejects.toThrow(ActionDeniedError);
      const context = new RunContext({ sessionId: 's-7' });
      await expect(
        agent.complete(EMAIL_PROMPT, { name: 'customer', value: 'a' }, { context }),
      ).resolves.toEqual({ values: ['Ada Lovelace', 'Alan Turing'], total: 2, hasMore: false });
      expect(guarded.providerCalls).toHaveLength(1);
      expect(guarded.providerCalls[0].context?.runContext).toBe(context);
      expect(guarded.providerCalls[0].context?.arguments).toEqual({});
    });

    it('does not ask the provider in a canceled context, and stops waiting for one when the context is canceled', async () => {
      const guarded = createGuardedCatalog();
      const agent = new Agent({ card, toolsets: [guarded.service] });
      const canceled = new RunContext();
      canceled.cancel('the user left');
      await expect(
        agent.complete(EMAIL_PROMPT, { name: 'customer', value: 'a' }, { context: canceled }),
      ).rejects.toThrow(ToolCancelledError);
      expect(guarded.providerCalls).toEqual([]);
      const context = new RunContext();
      const pending = agent.complete(
        { type: 'ref/prompt', name: 'slow_names' },
        { name: 'name', value: '' },
        { context },
      );
      while (guarded.providerCalls.length === 0) await new Promise((resolve) => setImmediate(resolve));
      expect(guarded.providerCalls[0].context?.runContext?.signal.aborted).toBe(false);
      context.cancel('typed on');
      const error = await rejection(pending);
      expect(error).toBeInstanceOf(ToolCancelledError);
      expect(error.message).toContain("The completion of 'name' for 'slow_names' was still pending");
      expect(guarded.providerCalls[0].context?.runContext?.signal.aborted).toBe(true);
    });

    it('refuses an argument the entry does not have, a value that is not a string and a context that is not a RunContext', async () => {
      const guarded = createGuardedCatalog();
      const agent = new Agent({ card, toolsets: [guarded.service] });
      await expect(agent.complete(FILE_TEMPLATE, { name: 'size', value: '' })).rejects.toThrow(
        new ToolInputError(
          "the resource template 'files://{folder}/{name}' has no argument 'size'; its arguments are folder, name.",
        ),
      );
      await expect(
        agent.complete(FILE_TEMPLATE, { name: 'name', value: 7 as unknown as string }),
      ).rejects.toThrow(
        new ToolInputError("A completion of 'name' needs the value typed so far as a string, got number."),
      );
      await expect(
        agent.complete(FILE_TEMPLATE, { name: 'name', value: '' }, { context: {} as RunContext }),
      ).rejects.toThrow(ToolInputError);
      expect(guarded.providerCalls).toEqual([]);
    });
  });

  describe('authorizeResourceRead', () => {
    it('refuses a resource or template URI the policy denies, and never runs the method', async () => {
      const guarded = createGuardedCatalog();
      const agent = new Agent({ card, toolsets: [guarded.service], policy: new CapabilityPolicy(DENY_ALL) });
      await expect(agent.authorizeResourceRead('files://secret')).rejects.toThrow(ActionDeniedError);
      await expect(agent.authorizeResourceRead('files://etc/passwd')).rejects.toThrow(ActionDeniedError);
      await expect(agent.authorizeResourceRead('files://open')).resolves.toBeUndefined();
      expect(guarded.reads).toEqual([]);
    });

    it('asks the approver like a read, and fails closed without one', async () => {
      const guarded = createGuardedCatalog();
      const policy = new CapabilityPolicy({ 'files.secret': 'require_approval' });
      const unapproved = new Agent({ card, toolsets: [guarded.service], policy });
      await expect(unapproved.authorizeResourceRead('files://secret')).rejects.toThrow(ApprovalRequiredError);
      const approved = new Agent({
        card,
        toolsets: [guarded.service],
        policy,
        approvalHandler: (request) => request.action.kind === 'resource.read',
      });
      await expect(approved.authorizeResourceRead('files://secret')).resolves.toBeUndefined();
      expect(guarded.reads).toEqual([]);
    });

    it('refuses what a read refuses first: an unknown URI, variables that do not validate, a canceled context', async () => {
      const agent = new Agent({ card, toolsets: [new NotesCatalog()] });
      await expect(agent.authorizeResourceRead('nothing://here')).rejects.toThrow(ResourceNotFoundError);
      const invalid = await rejection(agent.authorizeResourceRead('notes://inbox/forty'));
      expect(invalid).toBeInstanceOf(ToolValidationError);
      expect(invalid.message).toBe(
        `Invalid arguments for the resource 'notes://inbox/forty': id: must be an integer, got the string "forty"`,
      );
      const canceled = new RunContext();
      canceled.cancel();
      await expect(agent.authorizeResourceRead('notes://readme', canceled)).rejects.toThrow(
        ToolCancelledError,
      );
      await expect(agent.authorizeResourceRead('notes://readme', {} as RunContext)).rejects.toThrow(
        ToolInputError,
      );
    });
  });
});
