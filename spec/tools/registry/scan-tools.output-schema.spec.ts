import 'reflect-metadata';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { Agent } from '../../../lib/agents/agent';
import { ToolDefinitionError } from '../../../lib/errors/tool-definition-error';
import { createMcpServer } from '../../../lib/mcp/rev2025-11-25/create-mcp-server';
import { Param } from '../../../lib/tools/decorators/param.decorator';
import { Tool } from '../../../lib/tools/decorators/tool.decorator';
import { generateSchemaManifest } from '../../../lib/tools/manifest/generate-schema-manifest';
import type { SchemaManifest } from '../../../lib/tools/manifest/schema-manifest';
import type { NativeTool } from '../../../lib/tools/native-tool';
import { scanTools } from '../../../lib/tools/registry/scan-tools';
import { ToolRegistry } from '../../../lib/tools/registry/tool-registry';
import { AsyncTools, Receipt } from '../../fixtures/toolsets/async-tools';

const fixture = join(__dirname, '../../fixtures/toolsets/async-tools.ts');

function byName(tools: readonly NativeTool[]): Map<string, NativeTool> {
  return new Map(tools.map((tool) => [tool.name, tool]));
}

const receiptSchema = {
  type: 'object',
  properties: { id: { type: 'string' }, total: { type: 'integer' } },
  required: ['id', 'total'],
  additionalProperties: false,
};

class ExplicitAsyncTools {
  @Tool({ name: 'receipt_dto', description: 'Returns a DTO, declared by class', outputSchema: Receipt })
  async receipt(@Param('id') id: string): Promise<Receipt> {
    return Object.assign(new Receipt(), { id, total: 3 });
  }

  @Tool({
    name: 'totals_json',
    description: 'Returns totals, declared by JSON Schema',
    outputSchema: { type: 'object', properties: { a: { type: 'integer' } }, required: ['a'] },
  })
  async totals(): Promise<{ a: number }> {
    return { a: 1 };
  }

  @Tool({ name: 'checked', description: 'Checks its result', outputSchema: Receipt, validateOutput: true })
  async checked(): Promise<Receipt> {
    return Object.assign(new Receipt(), { id: 'r-1', total: 1.5 });
  }
}

class UncheckableTools {
  @Tool({ name: 'unchecked', description: 'Asks for a check it cannot have', validateOutput: true })
  async unchecked(): Promise<{ a: number }> {
    return { a: 1 };
  }
}

describe('scanTools', () => {
  describe('output schemas', () => {
    describe('without a manifest', () => {
      const tools = byName(scanTools(new AsyncTools()));

      it.each(['totals', 'receipt', 'ship', 'count', 'forget', 'anything'])(
        'declares no output schema for %s, which returns a Promise (design type Promise)',
        (name) => {
          expect(tools.get(name)!.outputSchema).toBeNull();
        },
      );

      it('declares no output schema for a method returning an object type (design type Object)', () => {
        expect(tools.get('summary')!.outputSchema).toBeNull();
      });

      it('keeps the schema of a primitive return type', () => {
        expect(tools.get('word')!.outputSchema).toEqual({ type: 'string', title: 'wordOutput' });
      });
    });

    describe('with the manifest of protolink schemas', () => {
      const manifest = generateSchemaManifest({ files: [fixture] });
      const tools = byName(scanTools(new AsyncTools(), { manifest }));

      it('takes T of Promise<T> for an interface', () => {
        expect(tools.get('ship')!.outputSchema).toMatchObject({
          type: 'object',
          properties: {
            id: { type: 'string' },
            days: { type: 'number', description: 'Days until delivery.' },
          },
          additionalProperties: false,
          title: 'shipOutput',
        });
        expect([...(tools.get('ship')!.outputSchema!.required as string[])].sort()).toEqual(['days', 'id']);
      });

      it('takes T of Promise<T> for an object type, a DTO class and a number', () => {
        expect(tools.get('totals')!.outputSchema).toMatchObject({
          type: 'object',
          properties: { a: { type: 'number' } },
          required: ['a'],
        });
        expect(tools.get('receipt')!.outputSchema).toMatchObject({
          type: 'object',
          properties: { id: { type: 'string' }, total: { type: 'number' } },
        });
        expect(tools.get('count')!.outputSchema).toEqual({ type: 'number', title: 'countOutput' });
      });

      it('takes a synchronous object type that decorator metadata only knows as Object', () => {
        expect(tools.get('summary')!.outputSchema).toMatchObject({ type: 'object', required: ['a'] });
      });

      it('declares nothing for Promise<void> and Promise<unknown> (the manifest has nothing, or {})', () => {
        expect(manifest.tools['AsyncTools.anything'].outputSchema).toEqual({});
        expect(tools.get('forget')!.outputSchema).toBeNull();
        expect(tools.get('anything')!.outputSchema).toBeNull();
      });

      it('is applied by new ToolRegistry({ manifest })', () => {
        const registry = new ToolRegistry({ manifest });
        registry.registerAll(new AsyncTools());
        expect(registry.get('ship')!.outputSchema).toMatchObject({ type: 'object', title: 'shipOutput' });
        expect(new ToolRegistry().registerAll(new AsyncTools())[0].outputSchema).toBeNull();
      });
    });

    describe('with an explicit outputSchema', () => {
      const manifest: SchemaManifest = {
        version: 1,
        tools: { 'ExplicitAsyncTools.totals': { outputSchema: { type: 'object', properties: {} } } },
      };
      const tools = byName(scanTools(new ExplicitAsyncTools(), { manifest }));

      it('builds a DTO class with its class-validator constraints', () => {
        expect(tools.get('receipt_dto')!.outputSchema).toEqual({
          ...receiptSchema,
          title: 'receipt_dtoOutput',
        });
      });

      it('uses a JSON Schema, over the manifest', () => {
        expect(tools.get('totals_json')!.outputSchema).toEqual({
          type: 'object',
          properties: { a: { type: 'integer' } },
          required: ['a'],
          additionalProperties: false,
          title: 'totals_jsonOutput',
        });
      });

      it('checks results against it with validateOutput', async () => {
        await expect(tools.get('checked')!.call({})).rejects.toThrow(
          "Tool 'checked' returned a result that does not match its output schema (result.total: must be an integer",
        );
      });

      it('is needed by validateOutput, which otherwise has nothing to check', () => {
        expect(() => scanTools(new UncheckableTools())).toThrow(ToolDefinitionError);
        expect(() => scanTools(new UncheckableTools())).toThrow(/load the manifest of 'protolink schemas'/);
      });
    });

    describe('served over MCP', () => {
      async function listAndCall(tools: readonly NativeTool[]) {
        const agent = new Agent({ card: { name: 'shop', description: 'Shop', url: 'http://127.0.0.1:0' } });
        for (const tool of tools) agent.addTool(tool);
        const server = createMcpServer(agent);
        const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
        await server.connect(serverTransport);
        const client = new Client({ name: 'spec-client', version: '1.0.0' });
        await client.connect(clientTransport);
        try {
          const listed = byName((await client.listTools()).tools as never);
          // The SDK client checks structuredContent against the listed outputSchema.
          const shipped = await client.callTool({ name: 'ship', arguments: { id: 's-1' } });
          return { listed, shipped, card: agent.card.toJSON() };
        } finally {
          await client.close();
        }
      }

      it('lists no outputSchema without a manifest, and the card advertises {} (unknown)', async () => {
        const { listed, shipped, card } = await listAndCall(scanTools(new AsyncTools()));
        expect(listed.get('ship')!.outputSchema).toBeUndefined();
        expect(listed.get('word')!.outputSchema).toBeUndefined();
        expect(shipped.structuredContent).toEqual({ id: 's-1', days: 2 });
        const skill = (card as { skills: { id: string; outputSchema: unknown }[] }).skills.find(
          (item) => item.id === 'ship',
        );
        expect(skill!.outputSchema).toEqual({});
      });

      it("lists the manifest's T as outputSchema, and results satisfy the client's check", async () => {
        const manifest = generateSchemaManifest({ files: [fixture] });
        const { listed, shipped } = await listAndCall(scanTools(new AsyncTools(), { manifest }));
        expect(listed.get('ship')!.outputSchema).toMatchObject({
          type: 'object',
          properties: { id: { type: 'string' }, days: { type: 'number' } },
        });
        expect(listed.get('count')!.outputSchema).toMatchObject({
          type: 'object',
          properties: { result: { type: 'number' } },
        });
        expect(shipped.isError).toBeFalsy();
        expect(shipped.structuredContent).toEqual({ id: 's-1', days: 2 });
      });
    });
  });
});
