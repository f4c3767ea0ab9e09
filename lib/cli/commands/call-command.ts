import type { Command } from 'commander';
import type { Agent } from '../../agents/agent';
import { ToolInputError } from '../../errors/tool-input-error';
import { lazyRequire } from '../../runtime/lazy-require';
import type { CliIo } from '../cli-io';
import { parseArgsOption } from '../parse-args-option';
import { terminalSafeIo } from '../terminal-safe-io';

// The agent runtime loads in the action, not for `protolink --help`.
const loadAgent = lazyRequire((): typeof import('../../agents/agent') => require('../../agents/agent'));
const loadApprovalDecision = lazyRequire((): typeof import('../../policy/approval-decision') =>
  require('../../policy/approval-decision'),
);
const loadRunContext = lazyRequire((): typeof import('../../runtime/run-context') =>
  require('../../runtime/run-context'),
);
const loadToolModules = lazyRequire((): typeof import('../load-tool-module') =>
  require('../load-tool-module'),
);
const loadPolicyOption = lazyRequire((): typeof import('../parse-policy-option') =>
  require('../parse-policy-option'),
);

/** Options of `protolink call`. */
export interface CallCommandOptions {
  /** The arguments as one JSON object. */
  args?: string;
  /** Capability rules as JSON (replaces the module's policy). */
  policy?: string;
  /** The default effect of those rules. */
  defaultEffect?: string;
  /** Approve calls that the policy sends for approval (after printing the request). */
  yes?: boolean;
  /** Abort the call after this many seconds. */
  timeout?: string;
}

/**
 * Calls one tool through an agent (validation, policy, approval, cancellation) and prints its result as JSON.
 *
 * @throws ToolInputError for invalid `--args`, an unknown tool or a missing module; the agent's errors as they are.
 */
export async function runCallCommand(
  modulePath: string,
  toolName: string,
  options: CallCommandOptions,
  io: CliIo,
): Promise<void> {
  io = terminalSafeIo(io);
  const args = parseArgsOption(options.args);
  const policy = loadPolicyOption().parsePolicyOption(options.policy, options.defaultEffect);
  const loaded = loadToolModules().loadToolModule(modulePath, { policy });
  const seconds = options.timeout === undefined ? undefined : Number(options.timeout);
  if (seconds !== undefined && !(seconds > 0))
    throw new ToolInputError(`--timeout must be a positive number of seconds, got '${options.timeout}'.`);
  const agent = options.yes ? withApprover(loaded, io) : loaded;
  const context = new (loadRunContext().RunContext)({
    budget: seconds === undefined ? undefined : { maxRuntimeSeconds: seconds },
  });
  const result = await agent.callToolInContext(toolName, context, args);
  io.out(typeof result === 'string' ? result : JSON.stringify(result, null, 2));
}

function withApprover(agent: Agent, io: CliIo): Agent {
  const { ApprovalDecision } = loadApprovalDecision();
  return new (loadAgent().Agent)({
    card: agent.card,
    policy: agent.policy,
    tools: [...agent.tools.values()],
    approvalHandler: (request) => {
      io.err(`approving ${request.action.name} (--yes): ${request.policyDecision.reason}`);
      return new ApprovalDecision({ approved: true, requestId: request.requestId, decidedBy: 'cli --yes' });
    },
  });
}

/** Adds `call` to the program. */
export function addCallCommand(program: Command, io: CliIo): void {
  program
    .command('call')
    .description(
      'call one tool of a module through an agent (validation, policy, approval) and print the result',
    )
    .argument('<module>', 'a .ts or .js file')
    .argument('<tool>', 'the tool name')
    .option('--args <json>', 'the arguments as one JSON object', '{}')
    .option('--policy <json>', 'capability rules, e.g. \'{"network.read": "allow", "*": "deny"}\'')
    .option(
      '--default-effect <effect>',
      'effect for capabilities no rule matches (allow, deny, require_approval)',
    )
    .option('--yes', 'approve calls the policy sends for approval')
    .option('--timeout <seconds>', 'cancel the call after this many seconds')
    .action((modulePath: string, toolName: string, options: CallCommandOptions) =>
      runCallCommand(modulePath, toolName, options, io),
    );
}
