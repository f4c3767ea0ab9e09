// Sample 02: the Agent as the controlled path — capability policy, approval with previews, run permissions,
// budgets, cancellation, telemetry events and YAML serialization. Runs offline.
// Run: npx ts-node --transpile-only samples/02-policy-and-approval/main.ts
import 'reflect-metadata';
import {
  ActionDeniedError,
  Agent,
  ApprovalDecision,
  BudgetExceededError,
  CapabilityPolicy,
  Context,
  Param,
  RunAction,
  RunContext,
  Tool,
  ToolCancelledError,
  Toolset,
} from '../../lib/index';
import type { ApprovalRequest } from '../../lib/index';
import { calculator } from '../../lib/builtins/calculator/calculator';

@Toolset({ tags: ['records'] })
class RecordTools {
  readonly published: string[] = [];

  @Tool({
    name: 'publish_record',
    description: 'Publish one record',
    capabilities: ['records.write'],
    // The preview an approver sees before anything happens.
    actionBuilder: (args) =>
      new RunAction({
        kind: 'tool.call',
        name: 'publish_record',
        payload: { arguments: args },
        artifacts: [{ kind: 'preview', content: `Record ${String(args.record_id)} becomes public` }],
      }),
  })
  publish(@Param('record_id') recordId: string): { record_id: string; status: string } {
    this.published.push(recordId);
    return { record_id: recordId, status: 'published' };
  }

  @Tool({ name: 'delete_records', description: 'Delete every record', capabilities: ['records.delete'] })
  deleteAll(): string {
    return 'all gone';
  }

  @Tool({
    name: 'slow_export',
    description: 'Export records slowly (honours cancellation)',
    capabilities: ['records.read'],
  })
  slowExport(@Context() context: RunContext): Promise<string> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => resolve('exported'), 5_000);
      context.signal.addEventListener('abort', () => {
        clearTimeout(timer);
        reject(context.signal.reason);
      });
    });
  }
}

// Approves record r-1 only; a real application would ask a person and show them the preview.
function approve(request: ApprovalRequest): ApprovalDecision {
  const preview = request.action.artifacts.map((artifact) => String(artifact.content)).join('; ');
  const recordId = (request.action.payload.arguments as { record_id?: string }).record_id;
  const approved = recordId === 'r-1';
  console.log(`  approver sees: "${preview}" -> ${approved ? 'approve' : 'deny'}`);
  return new ApprovalDecision({
    approved,
    requestId: request.requestId,
    reason: approved ? undefined : 'only r-1 today',
    decidedBy: 'sample',
  });
}

async function attempt(label: string, call: () => Promise<unknown>): Promise<void> {
  try {
    console.log(`${label}:`, JSON.stringify(await call()));
  } catch (error) {
    const known = [ActionDeniedError, BudgetExceededError, ToolCancelledError].some(
      (type) => error instanceof type,
    );
    if (!known) throw error;
    console.log(`${label}: ${(error as Error).name}: ${(error as Error).message}`);
  }
}

async function main(): Promise<void> {
  const records = new RecordTools();
  const agent = new Agent({
    card: {
      name: 'records-agent',
      description: 'Publishes records with approval',
      url: 'runtime://records-agent',
    },
    policy: new CapabilityPolicy(
      { 'records.read': 'allow', 'records.write': 'require_approval', 'records.delete': 'deny' },
      { defaultEffect: 'deny' },
    ),
    approvalHandler: approve,
  });
  agent.addTool(calculator());
  agent.addToolset(records);
  agent.on('policy-decision', (event) =>
    console.log(`  [policy] ${event.toolName}: ${event.decision.effect} (${event.decision.reason})`),
  );

  console.log('Skills on the card:', agent.card.skills.map((skill) => skill.id).join(', '));
  await attempt('calculator (no capability: always allowed)', () =>
    agent.callTool('calculator', { expression: '2 ** 10' }),
  );
  await attempt('publish r-1 (approved)', () => agent.callTool('publish_record', { record_id: 'r-1' }));
  await attempt('publish r-2 (denied by the approver)', () =>
    agent.callTool('publish_record', { record_id: 'r-2' }),
  );
  await attempt('delete_records (denied by policy)', () => agent.callTool('delete_records'));

  // Run permissions can only narrow: this run may not write, whatever the agent's policy says.
  const readOnly = new RunContext({ permissions: { 'records.write': 'deny' } });
  await attempt('publish r-1 in a read-only run', () =>
    agent.callToolInContext('publish_record', readOnly, { record_id: 'r-1' }),
  );

  // Budgets: the call that would exceed maxToolCalls never runs.
  const budgeted = new RunContext({ budget: { maxToolCalls: 1 } });
  await attempt('first call in a 1-call budget', () =>
    agent.callToolInContext('calculator', budgeted, { expression: '1 + 1' }),
  );
  await attempt('second call in a 1-call budget', () =>
    agent.callToolInContext('calculator', budgeted, { expression: '2 + 2' }),
  );

  // Cancellation: the call rejects at once; the tool receives the abort through its context's signal.
  const run = new RunContext();
  setTimeout(() => run.cancel('user pressed stop'), 50);
  await attempt('slow_export canceled after 50 ms', () => agent.callToolInContext('slow_export', run));

  // Serialization: card, built-ins by id, policy rules. Code (toolsets, handler) comes back as overrides.
  const yaml = agent.toYAML();
  console.log('YAML policy section:\n' + yaml.slice(yaml.indexOf('policy:')));
  const restored = Agent.fromYAML(yaml, { toolsets: [new RecordTools()], approvalHandler: approve });
  console.log('Restored tools:', [...restored.tools.keys()].join(', '));
  await attempt('restored agent, delete_records', () => restored.callTool('delete_records'));
  console.log('Published:', records.published.join(', '));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
