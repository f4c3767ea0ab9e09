// Sample 08: NestJS services whose @Tool methods become agent tools through DI, called in process and,
// through the module option `serve`, over MCP from the Nest application's own HTTP server.
// Run: npx ts-node --transpile-only samples/08-nestjs/main.ts
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Controller, Get, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { IsInt, IsString, Min } from 'class-validator';
import { Agent, ApprovalDecision, CapabilityPolicy, Param, Tool } from '../../lib/index';
import { InjectAgent, ProtolinkModule } from '../../lib/nest/index';

@Injectable()
class InventoryStore {
  private readonly stock = new Map([
    ['apple', 12],
    ['pear', 3],
  ]);
  count(item: string): number {
    return this.stock.get(item) ?? 0;
  }
  take(item: string, quantity: number): number {
    const left = this.count(item) - quantity;
    this.stock.set(item, left);
    return left;
  }
}

class Withdrawal {
  @IsString() item!: string;
  @IsInt() @Min(1) quantity!: number;
}

@Injectable()
class InventoryTools {
  constructor(private readonly store: InventoryStore) {}

  @Tool({
    name: 'count_stock',
    description: 'How many of an item are in stock',
    capabilities: ['inventory.read'],
  })
  countStock(@Param('item') item: string): number {
    return this.store.count(item);
  }

  @Tool({ name: 'withdraw_stock', description: 'Take items out of stock', capabilities: ['inventory.write'] })
  withdraw(@Param() withdrawal: Withdrawal): number {
    return this.store.take(withdrawal.item, withdrawal.quantity);
  }
}

@Injectable()
class Assistant {
  constructor(@InjectAgent() private readonly agent: Agent) {}

  async run(): Promise<void> {
    console.log('tools:', [...this.agent.tools.keys()].join(', '));
    console.log('count_stock(apple) =', await this.agent.callTool('count_stock', { item: 'apple' }));
    console.log(
      'withdraw_stock(apple, 2) =',
      await this.agent.callTool('withdraw_stock', { item: 'apple', quantity: 2 }),
    );
    try {
      await this.agent.callTool('withdraw_stock', { item: 'pear', quantity: 50 });
    } catch (error) {
      console.log('withdraw_stock(pear, 50) refused:', (error as Error).name);
    }
  }
}

@Controller('health')
class HealthController {
  @Get()
  check(): { ok: boolean } {
    return { ok: true };
  }
}

@Module({
  imports: [
    ProtolinkModule.forRoot({
      card: { name: 'inventory-agent', description: 'Inventory tools', url: 'http://127.0.0.1:0' },
      policy: new CapabilityPolicy(
        { 'inventory.read': 'allow', 'inventory.write': 'require_approval' },
        { defaultEffect: 'deny' },
      ),
      // Approve small withdrawals only; a real application would ask a person.
      approvalHandler: (request) =>
        new ApprovalDecision({
          approved: (request.action.payload.arguments as { quantity: number }).quantity <= 10,
          requestId: request.requestId,
          decidedBy: 'sample-rule',
        }),
      // Also serve the tools over MCP at /mcp (and the card) on the application's own port.
      serve: { sessionMode: 'stateless' },
    }),
  ],
  providers: [InventoryStore, InventoryTools, Assistant],
  controllers: [HealthController],
})
class AppModule {}

async function main(): Promise<void> {
  const app = await NestFactory.create(AppModule, { logger: false });
  await app.listen(0, '127.0.0.1');
  try {
    await app.get(Assistant).run();
    const base = await app.getUrl(); // http://127.0.0.1:<port>
    const client = new Client({ name: 'sample-08', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(`${base}/mcp`)));
    const { tools } = await client.listTools();
    console.log('over MCP, tools:', tools.map((tool) => tool.name).join(', '));
    const result = await client.callTool({ name: 'count_stock', arguments: { item: 'pear' } });
    console.log('over MCP, count_stock(pear) =', (result.content as { text: string }[])[0].text);
    await client.close();
    const health = await fetch(`${base}/health`);
    console.log('the application route /health still answers:', JSON.stringify(await health.json()));
  } finally {
    await app.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
