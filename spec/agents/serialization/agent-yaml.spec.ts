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
});
