import 'reflect-metadata';
import { Agent } from '../../lib/agents/agent';
import { ActionDeniedError } from '../../lib/errors/action-denied-error';
import { ApprovalRequiredError } from '../../lib/errors/approval-required-error';
import { PromptNotFoundError } from '../../lib/errors/prompt-not-found-error';
import { ResourceNotFoundError } from '../../lib/errors/resource-not-found-error';
import { ToolDefinitionError } from '../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ToolValidationError } from '../../lib/errors/tool-validation-error';
import { CapabilityPolicy } from '../../lib/policy/capability-policy';
import { Resource } from '../../lib/resources/resource.decorator';
import { RunContext } from '../../lib/runtime/run-context';
import { NotesCatalog } from '../fixtures/catalog/notes-catalog';

const card = { name: 'notes', description: 'Notes', url: 'runtime://notes' };

describe('Agent catalog (resources, templates, prompts)', () => {
  describe('addToolset', () => {
    it('registers the tools and the catalog entries, and lists them as skills on the card', () => {
      const agent = new Agent({ card });
      agent.addToolset(new NotesCatalog());
      expect([...agent.tools.keys()]).toEqual(['count_notes']);
      expect(agent.catalog.listResources().map((entry) => entry.uri)).toEqual([
        'notes://readme',
        'notes://logo',
        'notes://secret',
      ]);
      expect(agent.catalog.listResourceTemplates().map((entry) => entry.uriTemplate)).toEqual([
        'notes://{folder}/{id}',
      ]);
      expect(agent.catalog.listPrompts().map((entry) => entry.name)).toEqual([
        'summarize',
        'with_image',
        'repeat',
      ]);
      const skills = agent.card.toJSON().skills.map((skill) => [skill.id, skill.tags]);
      expect(skills).toEqual(
        expect.arrayContaining([
          ['count_notes', []],
          ['resource:notes://readme', ['resource']],
          ['resource-template:notes://{folder}/{id}', ['resource-template']],
          ['prompt:summarize', ['prompt']],
        ]),
      );
    });

    it('finds the entries of toolsets given to the constructor', () => {
      const agent = new Agent({ card, toolsets: [new NotesCatalog()] });
      expect(agent.catalog.listPrompts()).toHaveLength(3);
    });

    it('refuses a second service with the same resource URI and registers nothing of it', () => {
      const agent = new Agent({ card });
      agent.addToolset(new NotesCatalog());
      class Other {
        @Resource({ uri: 'notes://readme' })
        readme(): string {
          return 'x';
        }
      }
      expect(() => agent.addToolset(new Other())).toThrow(ToolDefinitionError);
      expect(() => agent.addToolset(new Other())).toThrow(
        "Other declares the resource 'notes://readme', which is already registered; give each one a unique URI.",
      );
    });
  });

  describe('readResource', () => {
    const agent = new Agent({ card, toolsets: [new NotesCatalog()] });

    it('reads text with the declared MIME type', async () => {
      await expect(agent.readResource('notes://readme')).resolves.toEqual({
        contents: [{ uri: 'notes://readme', mimeType: 'text/markdown', text: '# Notes' }],
      });
    });

    it('reads bytes as a base64 blob', async () => {
      await expect(agent.readResource('notes://logo')).resolves.toEqual({
        contents: [
          {
            uri: 'notes://logo',
            mimeType: 'image/png',
            blob: Buffer.from([0x89, 0x50, 0x4e, 0x47]).toString('base64'),
          },
        ],
      });
    });

    it('reads a template URI with its variables validated and coerced like tool arguments', async () => {
      const result = await agent.readResource('notes://inbox/42');
      expect(result.contents[0]).toEqual({
        uri: 'notes://inbox/42',
        mimeType: 'application/json',
        text: JSON.stringify({ folder: 'inbox', id: 42, idType: 'number' }),
      });
    });

    it('rejects a template URI whose variable does not validate', async () => {
      const read = agent.readResource('notes://inbox/forty');
      await expect(read).rejects.toThrow(ToolValidationError);
      await expect(agent.readResource('notes://inbox/forty')).rejects.toThrow(
        `Invalid arguments for the resource 'notes://inbox/forty': id: must be an integer, got the string "forty"`,
      );
    });

    it('rejects an unknown URI with ResourceNotFoundError carrying the URI', async () => {
      const error = await agent.readResource('notes://a/b/c').catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect((error as ResourceNotFoundError).uri).toBe('notes://a/b/c');
      expect((error as Error).message).toBe(
        "Resource not found: 'notes://a/b/c'. No @Resource has this URI and no @ResourceTemplate matches it; list them with resources/list and resources/templates/list.",
      );
    });

    it('rejects a read the policy denies, never returning the data', async () => {
      const strict = new Agent({
        card,
        toolsets: [new NotesCatalog()],
        policy: new CapabilityPolicy({ 'notes.secret': 'deny' }),
      });
      await expect(strict.readResource('notes://secret')).rejects.toThrow(ActionDeniedError);
      await expect(strict.readResource('notes://readme')).resolves.toBeDefined();
    });

    it('asks for approval like a tool call, and fails closed without an approver', async () => {
      const gated = new Agent({
        card,
        toolsets: [new NotesCatalog()],
        policy: new CapabilityPolicy({ 'notes.secret': 'require_approval' }),
      });
      await expect(gated.readResource('notes://secret')).rejects.toThrow(ApprovalRequiredError);
      const approved = new Agent({
        card,
        toolsets: [new NotesCatalog()],
        policy: new CapabilityPolicy({ 'notes.secret': 'require_approval' }),
        approvalHandler: (request) =>
          request.action.kind === 'resource.read' && request.action.name === 'notes://secret',
      });
      await expect(approved.readResource('notes://secret')).resolves.toEqual({
        contents: [{ uri: 'notes://secret', text: 'the secret' }],
      });
    });

    it('runs in the given context (its session id reaches @Context)', async () => {
      const service = new NotesCatalog();
      const withService = new Agent({ card, toolsets: [service] });
      await withService.readResource('notes://readme', new RunContext({ sessionId: 's-1' }));
      expect(service.reads).toEqual(['s-1']);
    });
  });

  describe('getPrompt', () => {
    const agent = new Agent({ card, toolsets: [new NotesCatalog()] });

    it('turns a string into one user text message, with the description', async () => {
      await expect(agent.getPrompt('summarize', { text: 'hello' })).resolves.toEqual({
        description: 'Summarize a note',
        messages: [{ role: 'user', content: { type: 'text', text: 'Summarize (short): hello' } }],
      });
    });

    it('keeps images, embedded resources and roles', async () => {
      const result = await agent.getPrompt('with_image');
      expect(result.messages.map((message) => [message.role, message.content.type])).toEqual([
        ['user', 'image'],
        ['user', 'resource'],
        ['assistant', 'text'],
      ]);
    });

    it('coerces string arguments like tool arguments', async () => {
      const result = await agent.getPrompt('repeat', { times: '2' });
      expect(result.messages[0].content).toEqual({ type: 'text', text: 'again again' });
    });

    it('rejects missing arguments with ToolValidationError', async () => {
      await expect(agent.getPrompt('summarize', {})).rejects.toThrow(ToolValidationError);
      await expect(agent.getPrompt('summarize', {})).rejects.toThrow(
        "Invalid arguments for the prompt 'summarize': text: is required",
      );
    });

    it('rejects an unknown prompt with PromptNotFoundError listing the prompts', async () => {
      await expect(agent.getPrompt('nope')).rejects.toThrow(PromptNotFoundError);
      await expect(agent.getPrompt('nope')).rejects.toThrow(
        "Unknown prompt 'nope'. Available prompts: repeat, summarize, with_image.",
      );
    });
  });

  describe('catalog.complete', () => {
    const agent = new Agent({ card, toolsets: [new NotesCatalog()] });

    it('asks the provider of a template variable', async () => {
      await expect(
        agent.catalog.complete(
          { type: 'ref/resource', uri: 'notes://{folder}/{id}' },
          { name: 'folder', value: 'i' },
        ),
      ).resolves.toEqual({ values: ['inbox', 'ideas'], total: 2, hasMore: false });
    });

    it('answers no values for an argument without a provider', async () => {
      await expect(
        agent.catalog.complete({ type: 'ref/prompt', name: 'summarize' }, { name: 'text', value: 'x' }),
      ).resolves.toEqual({ values: [], hasMore: false });
    });

    it('refuses an argument the prompt does not have', async () => {
      await expect(
        agent.catalog.complete({ type: 'ref/prompt', name: 'summarize' }, { name: 'tone', value: '' }),
      ).rejects.toThrow(
        new ToolInputError("the prompt 'summarize' has no argument 'tone'; its arguments are text, style."),
      );
    });
  });

  describe('notifyResourceUpdated', () => {
    it('tells the listeners, and refuses an empty URI', () => {
      const agent = new Agent({ card, toolsets: [new NotesCatalog()] });
      const seen: string[] = [];
      const stop = agent.catalog.onResourceUpdated((uri) => seen.push(uri));
      agent.notifyResourceUpdated('notes://readme');
      stop();
      agent.notifyResourceUpdated('notes://readme');
      expect(seen).toEqual(['notes://readme']);
      expect(() => agent.notifyResourceUpdated('')).toThrow(
        new ToolInputError('notifyResourceUpdated(uri) needs a non-empty URI, got "".'),
      );
    });
  });
});
