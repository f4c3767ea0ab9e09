import { Agent } from '../../../lib/agents/agent';
import {
  agentDictToYaml,
  MAX_AGENT_YAML_CHARS,
  parseAgentYaml,
} from '../../../lib/agents/serialization/agent-yaml';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { CapabilityPolicy } from '../../../lib/policy/capability-policy';

const card = { name: 'researcher', description: 'Finds public information', url: 'runtime://researcher' };

describe('parseAgentYaml', () => {
  describe('parseAgentYaml()', () => {
    it('reads what agentDictToYaml wrote', () => {
      const dict = new Agent({ card, policy: new CapabilityPolicy({ 'records.*': 'ask' }) }).toDict();
      expect(parseAgentYaml(agentDictToYaml(dict))).toEqual(dict);
    });

    it('throws ToolInputError for text that is not YAML, not a mapping, or not text', () => {
      expect(() => parseAgentYaml('card: [unclosed')).toThrow(ToolInputError);
      expect(() => parseAgentYaml('card: [unclosed')).toThrow('The agent YAML is not valid YAML');
      expect(() => parseAgentYaml('a: 1\na: 2')).toThrow('The agent YAML is not valid YAML');
      expect(() => parseAgentYaml('- just\n- a list')).toThrow(
        'The agent YAML must be a mapping with card, tools',
      );
      expect(() => parseAgentYaml('plain words')).toThrow('The agent YAML must be a mapping');
      expect(() => parseAgentYaml(42)).toThrow('Agent.fromYAML() needs YAML text, got number.');
    });

    it('refuses text longer than MAX_AGENT_YAML_CHARS before parsing it', () => {
      const huge = `card: "${'x'.repeat(MAX_AGENT_YAML_CHARS)}"`;
      expect(() => parseAgentYaml(huge)).toThrow(ToolInputError);
      expect(() => parseAgentYaml(huge)).toThrow(`at most ${MAX_AGENT_YAML_CHARS} are read`);
    });

    it('refuses alias bombs', () => {
      const lines = ['a0: &a0 [x, x, x, x, x, x, x, x, x, x]'];
      for (let index = 1; index < 12; index += 1) {
        const previous = `*a${index - 1}`;
        lines.push(`a${index}: &a${index} [${Array(10).fill(previous).join(', ')}]`);
      }
      expect(() => parseAgentYaml(lines.join('\n'))).toThrow(ToolInputError);
    });
  });

  describe('parseAgentYaml() given a file path instead of YAML text', () => {
    it.each([
      'agent.yaml',
      'config/agent.YML',
      './agent',
      '../agents/researcher',
      '/etc/protolink/agent.yaml',
      '~/agent.yaml',
      'C:\\agents\\agent.yaml',
      'C:/agents/agent',
      '  agent.yaml\n',
    ])('says that %j looks like a file path and to use Agent.fromYAMLFile', (text) => {
      expect(() => parseAgentYaml(text)).toThrow(ToolInputError);
      expect(() => parseAgentYaml(text)).toThrow(
        `This looks like a file path; use Agent.fromYAMLFile(${JSON.stringify(text.trim())}) to read the file (Agent.fromYAML takes the YAML text itself).`,
      );
    });

    it('says so when the path does not even parse as YAML', () => {
      expect(() => parseAgentYaml('./agents/[draft].yaml')).toThrow(
        'This looks like a file path; use Agent.fromYAMLFile("./agents/[draft].yaml")',
      );
    });

    it.each(['plain words', 'card: agent.yaml', '- agent.yaml\n- other.yaml', '~', 'agent.json', 'key: ./x'])(
      'does not call %j a file path',
      (text) => {
        expect(() => Agent.fromYAML(text)).toThrow(ToolInputError);
        expect(() => Agent.fromYAML(text)).not.toThrow('looks like a file path');
      },
    );

    it('names the file, and never hints at a path, for text read from a file', () => {
      expect(() => parseAgentYaml('other.yaml', { file: 'agent.yaml' })).toThrow(
        "The agent YAML file 'agent.yaml' must be a mapping with card, tools",
      );
      expect(() => parseAgentYaml('other.yaml', { file: 'agent.yaml' })).not.toThrow(
        'looks like a file path',
      );
    });
  });
});
