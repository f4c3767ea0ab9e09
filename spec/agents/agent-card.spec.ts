import { ToolInputError } from '../../lib/errors/tool-input-error';
import { AgentCard } from '../../lib/agents/agent-card';
import { AgentSkill } from '../../lib/agents/agent-skill';
import { NativeTool } from '../../lib/tools/native-tool';

const base = { name: 'researcher', description: 'Finds public information', url: 'runtime://researcher' };

describe('AgentCard', () => {
  describe('constructor', () => {
    it('fills A2A defaults', () => {
      const card = new AgentCard(base);
      expect(card.toJSON()).toEqual({
        protocolVersion: '0.3.0',
        name: 'researcher',
        description: 'Finds public information',
        url: 'runtime://researcher',
        preferredTransport: 'JSONRPC',
        version: '1.0.0',
        capabilities: {},
        defaultInputModes: ['text/plain'],
        defaultOutputModes: ['text/plain'],
        skills: [],
      });
    });

    it('throws ToolInputError naming a missing or empty field', () => {
      expect(() => new AgentCard({ ...base, url: '' })).toThrow(ToolInputError);
      expect(() => new AgentCard({ ...base, url: '' })).toThrow('AgentCard url must be a non-empty string.');
      expect(() => new AgentCard(null as never)).toThrow('new AgentCard() needs { name, description, url }');
      expect(() => new AgentCard({ ...base, version: 2 as never })).toThrow(
        'AgentCard version must be a string.',
      );
    });
  });

  describe('setSkill', () => {
    it('replaces a skill with the same id in place and removeSkill drops it', () => {
      const card = new AgentCard({ ...base, skills: [{ id: 'a', description: 'A' }, { id: 'b' }] });
      card.setSkill(new AgentSkill({ id: 'a', description: 'A2' }));
      card.setSkill(new AgentSkill({ id: 'c' }));
      expect(card.skills.map((skill) => [skill.id, skill.description])).toEqual([
        ['a', 'A2'],
        ['b', ''],
        ['c', ''],
      ]);
      expect(card.removeSkill('b')).toBe(true);
      expect(card.removeSkill('b')).toBe(false);
      expect(Object.isFrozen(card.skills)).toBe(true);
    });
  });

  describe('fromJSON', () => {
    it('round-trips the A2A JSON form', () => {
      const card = new AgentCard({
        ...base,
        version: '2.1.0',
        capabilities: { streaming: true },
        provider: { organization: 'Example' },
        documentationUrl: 'https://example.com/docs',
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } },
        security: [{ bearer: [] }],
        skills: [
          { id: 'x', description: 'X', tags: ['t'], examples: [{ q: 1 }], inputSchema: { type: 'object' } },
        ],
      });
      const json = JSON.parse(JSON.stringify(card));
      expect(AgentCard.fromJSON(json).toJSON()).toEqual(card.toJSON());
      expect(json.skills[0]).toEqual({
        id: 'x',
        name: 'x',
        description: 'X',
        tags: ['t'],
        examples: [{ q: 1 }],
        inputSchema: { type: 'object' },
        outputSchema: {},
      });
    });

    it('throws ToolInputError naming the malformed field', () => {
      expect(() => AgentCard.fromJSON('card')).toThrow(
        'card must be an object with name, description and url.',
      );
      expect(() => AgentCard.fromJSON({ ...base, name: 1 })).toThrow('card.name must be a non-empty string.');
      expect(() => AgentCard.fromJSON({ ...base, skills: {} })).toThrow('card.skills must be an array.');
      expect(() => AgentCard.fromJSON({ ...base, skills: [{ description: 'no id' }] })).toThrow(
        'card.skills[0].id must be a non-empty string.',
      );
      expect(() => AgentCard.fromJSON({ ...base, skills: [{ id: 'x', tags: 'a' }] })).toThrow(
        'card.skills[0].tags must be an array.',
      );
      expect(() => AgentCard.fromJSON({ ...base, capabilities: [] })).toThrow(
        'card.capabilities must be an object.',
      );
      expect(() => AgentCard.fromJSON({ ...base, version: 1 })).toThrow('card.version must be a string.');
      expect(() => AgentCard.fromJSON({ ...base, skills: [{ id: 'x', inputSchema: 'object' }] })).toThrow(
        'card.skills[0].inputSchema must be a JSON Schema object.',
      );
    });
  });
});

describe('AgentSkill', () => {
  describe('fromTool', () => {
    it('advertises a tool: name, description or Tool: <name>, tags, examples and schemas', () => {
      const tool = new NativeTool({
        name: 'ping',
        description: '',
        tags: ['net'],
        examples: [{}],
        func: () => 'pong',
      });
      const skill = AgentSkill.fromTool(tool);
      expect(skill.toJSON()).toEqual({
        id: 'ping',
        name: 'ping',
        description: 'Tool: ping',
        tags: ['net'],
        examples: [{}],
        inputSchema: tool.inputSchema,
        // The tool declares no output schema (null); the card's JSON form writes `{}` for "unknown".
        outputSchema: {},
      });
      expect(tool.outputSchema).toBeNull();
    });

    it('advertises the output schema a tool declares', () => {
      const tool = new NativeTool({
        name: 'count',
        description: 'Counts',
        outputSchema: { type: 'integer' },
        func: () => 1,
      });
      expect(AgentSkill.fromTool(tool).toJSON().outputSchema).toEqual({
        type: 'integer',
        title: 'countOutput',
      });
    });
  });

  describe('constructor', () => {
    it('throws ToolInputError without an id', () => {
      expect(() => new AgentSkill({ id: '' })).toThrow(ToolInputError);
      expect(() => new AgentSkill({ id: '' })).toThrow('An AgentSkill needs a non-empty id');
    });
  });

  describe('fromJSON', () => {
    it('reads snake_case schema keys too', () => {
      expect(AgentSkill.fromJSON({ id: 'x', input_schema: { type: 'object' } }).inputSchema).toEqual({
        type: 'object',
      });
      expect(() => AgentSkill.fromJSON([])).toThrow('skill must be an object such as { id, description }.');
    });
  });
});
