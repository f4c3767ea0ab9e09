import { ApprovalDecision } from '../policy/approval-decision';
import type { ApprovalHandler } from '../policy/approval-handler';
import type { ApprovalRequest } from '../policy/approval-request';
import type { RunContext } from '../runtime/run-context';
import { findToolCallChannel } from '../runtime/tool-call-scope';

/** Longest preview text put into an approval question, in characters. */
const MAX_PREVIEW_CHARS = 2_000;

/**
 * For a served call whose agent has no approval handler: an approver that asks the connected MCP client's
 * user with `elicitation/create` (accept → approved; decline or cancel → denied), when the client declared
 * elicitation. Undefined otherwise, so the call fails closed as before.
 */
export function approvalThroughChannel(context: RunContext): ApprovalHandler | undefined {
  const channel = findToolCallChannel(context, parentOf);
  if (!channel?.canElicit()) return undefined;
  return async (request: ApprovalRequest) => {
    const answer = await channel.elicit(describeApproval(request), APPROVAL_SCHEMA, context.signal);
    return new ApprovalDecision({
      approved: answer.action === 'accept',
      requestId: request.requestId,
      decidedBy: 'mcp-client',
      reason: answer.action === 'accept' ? 'approved by the user' : `the user chose ${answer.action}`,
    });
  };
}

/** An empty form: the client shows the message with accept / decline. */
const APPROVAL_SCHEMA = Object.freeze({ type: 'object', properties: Object.freeze({}) });

/** The question shown to the user: what the tool wants to do, why it needs approval, and its previews. */
export function describeApproval(request: ApprovalRequest): string {
  const action = request.action;
  const lines = [
    `Allow tool '${action.name}' to run?`,
    action.description ? action.description : undefined,
    action.capabilities.length ? `Capabilities: ${action.capabilities.join(', ')}` : undefined,
    request.policyDecision.reason ? `Policy: ${request.policyDecision.reason}` : undefined,
    `Arguments: ${truncate(safeJson(argumentsOf(action.payload)))}`,
  ];
  for (const artifact of action.artifacts) {
    const content = typeof artifact.content === 'string' ? artifact.content : safeJson(artifact.content);
    lines.push(`${artifact.kind}: ${truncate(content)}`);
  }
  return lines.filter((line): line is string => line !== undefined).join('\n');
}

function safeJson(value: unknown): string {
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}

function truncate(text: string): string {
  return text.length > MAX_PREVIEW_CHARS ? `${text.slice(0, MAX_PREVIEW_CHARS)}… (cut)` : text;
}

function parentOf(context: object): object | undefined {
  return (context as { parent?: object }).parent;
}

/** The default action's payload is `{ arguments }`; a builder's payload is shown whole. */
function argumentsOf(payload: Readonly<Record<string, unknown>>): unknown {
  const keys = Object.keys(payload);
  return keys.length === 1 && keys[0] === 'arguments' ? payload.arguments : payload;
}
