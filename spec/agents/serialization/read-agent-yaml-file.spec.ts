import 'reflect-metadata';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { Agent } from '../../../lib/agents/agent';
import {
  MAX_AGENT_YAML_FILE_BYTES,
  readAgentYamlFile,
} from '../../../lib/agents/serialization/read-agent-yaml-file';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { ToolInputError } from '../../../lib/errors/tool-input-error';
import { CapabilityPolicy } from '../../../lib/policy/capability-policy';
import { calculator } from '../../../lib/builtins/calculator/calculator';
import { TravelTools } from '../../fixtures/toolsets/travel-tools';

const card = { name: 'researcher', description: 'Finds public information', url: 'runtime://researcher' };

describe('readAgentYamlFile', () => {
  let folder: string;
  beforeEach(() => {
    folder = mkdtempSync(join(tmpdir(), 'protolink-agent-yaml-'));
  });
  afterEach(() => rmSync(folder, { recursive: true, force: true }));

  it('reads a file as UTF-8 text, without a byte order mark', () => {
    const file = join(folder, 'agent.yaml');
    writeFileSync(file, '\ufeffcard:\n  name: "café"\n', 'utf8');
    expect(readAgentYamlFile(file)).toBe('card:\n  name: "café"\n');
  });

  it('names the path as given and as resolved from the working directory for a missing file', () => {
    const missing = relative(process.cwd(), join(folder, 'missing.yaml'));
    const read = () => readAgentYamlFile(missing);
    expect(read).toThrow(ToolInputError);
    expect(read).toThrow(
      `Agent.fromYAMLFile(): there is no file '${missing}' (resolved from ${process.cwd()} to ${join(folder, 'missing.yaml')}). Check the path; a relative one is resolved from the working directory.`,
    );
  });

  it('names an absolute path once', () => {
    const missing = join(folder, 'nope', 'agent.yaml');
    expect(() => readAgentYamlFile(missing)).toThrow(`there is no file '${missing}'. Check the path`);
  });

  it('refuses a directory, suggesting a file in it', () => {
    mkdirSync(join(folder, 'agents'));
    const directory = join(folder, 'agents');
    expect(() => readAgentYamlFile(directory)).toThrow(ToolInputError);
    expect(() => readAgentYamlFile(directory)).toThrow(
      `Agent.fromYAMLFile(): '${directory}' is a directory; pass the path of the agent's YAML file in it (e.g. ${JSON.stringify(`${directory}/agent.yaml`)}).`,
    );
  });

  it('refuses a file larger than MAX_AGENT_YAML_FILE_BYTES before reading it', () => {
    const file = join(folder, 'huge.yaml');
    writeFileSync(file, Buffer.alloc(MAX_AGENT_YAML_FILE_BYTES + 1, 0x20));
    expect(() => readAgentYamlFile(file)).toThrow(
      `is ${MAX_AGENT_YAML_FILE_BYTES + 1} bytes; at most ${MAX_AGENT_YAML_FILE_BYTES} are read`,
    );
  });

  it.each([
    ['', 'an empty string'],
    [undefined, 'the undefined undefined'],
    [null, 'null'],
  ])('refuses %j as a path, pointing to fromYAML for text', (path, shown) => {
    expect(() => readAgentYamlFile(path)).toThrow(
      `Agent.fromYAMLFile() needs the path of a YAML file, got ${shown}. To restore from YAML text, use Agent.fromYAML(text).`,
    );
  });
});

describe('Agent', () => {
  describe('fromYAMLFile', () => {
    let folder: string;
    beforeEach(() => {
      folder = mkdtempSync(join(tmpdir(), 'protolink-agent-yaml-'));
    });
    afterEach(() => rmSync(folder, { recursive: true, force: true }));

    it('restores what toYAML wrote to a file, with the same options as fromYAML', async () => {
      const original = new Agent({
        card,
        policy: new CapabilityPolicy({ 'records.write': 'deny' }, { defaultEffect: 'allow' }),
        tools: [calculator()],
        toolsets: [new TravelTools()],
      });
      const file = join(folder, 'agent.yaml');
      writeFileSync(file, original.toYAML(), 'utf8');
      const approvalHandler = () => true;
      const restored = Agent.fromYAMLFile(file, { toolsets: [new TravelTools()], approvalHandler });
      expect(restored.toDict()).toEqual(original.toDict());
      expect(restored.approvalHandler).toBe(approvalHandler);
      await expect(restored.callTool('calculator', { expression: '2 + 3' })).resolves.toMatchObject({
        result: 5,
      });
      expect(Agent.fromYAMLFile(file, { toolsets: [new TravelTools()] }).toYAML()).toBe(original.toYAML());
    });

    it('reads a path relative to the working directory', () => {
      const file = join(folder, 'agent.yaml');
      writeFileSync(file, new Agent({ card }).toYAML(), 'utf8');
      expect(Agent.fromYAMLFile(relative(process.cwd(), file)).name).toBe('researcher');
    });

    it('names the file when its content is not an agent', () => {
      const file = join(folder, 'agent.yaml');
      writeFileSync(file, 'card: [unclosed', 'utf8');
      expect(() => Agent.fromYAMLFile(file)).toThrow(`The agent YAML file '${file}' is not valid YAML`);
      writeFileSync(file, 'other.yaml\n', 'utf8');
      expect(() => Agent.fromYAMLFile(file)).toThrow(`The agent YAML file '${file}' must be a mapping`);
      expect(() => Agent.fromYAMLFile(file)).not.toThrow('looks like a file path');
    });

    it('refuses an option that is not known, as fromYAML does', () => {
      const file = join(folder, 'agent.yaml');
      writeFileSync(file, new Agent({ card }).toYAML(), 'utf8');
      expect(() => Agent.fromYAMLFile(file, { polcy: null } as never)).toThrow(ToolDefinitionError);
      expect(() => Agent.fromYAMLFile(file, { polcy: null } as never)).toThrow("did you mean 'policy'?");
    });
  });

  describe('fromYAML given a file path', () => {
    it('says it looks like a file path and names fromYAMLFile', () => {
      expect(() => Agent.fromYAML('./agent.yaml')).toThrow(ToolInputError);
      expect(() => Agent.fromYAML('./agent.yaml')).toThrow(
        'This looks like a file path; use Agent.fromYAMLFile("./agent.yaml") to read the file',
      );
    });
  });
});
