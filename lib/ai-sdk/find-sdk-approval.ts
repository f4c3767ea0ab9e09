/** An approval the AI SDK collected for one tool call (a `tool-approval-response` with `approved: true`). */
export interface SdkApproval {
  /** The AI SDK's id of the approval. */
  readonly approvalId: string;
  /** The reason the approver gave, when any. */
  readonly reason?: string;
}

/**
 * Finds, in the messages the AI SDK hands to `execute`, the approved `tool-approval-response` that
 * answers the `tool-approval-request` of this tool call. Returns undefined when the call was not approved
 * through the AI SDK (it then needs the agent's own approver, if its policy asks for one).
 *
 * Reads the messages as plain data, so it does not depend on one AI SDK version's message types.
 */
export function findSdkApproval(messages: readonly unknown[], toolCallId: string): SdkApproval | undefined {
  const approvalIds = new Set<string>();
  for (const part of contentParts(messages, 'assistant')) {
    if (part.type === 'tool-approval-request' && part.toolCallId === toolCallId) {
      if (typeof part.approvalId === 'string') approvalIds.add(part.approvalId);
    }
  }
  if (approvalIds.size === 0) return undefined;
  let found: SdkApproval | undefined;
  for (const part of contentParts(messages, 'tool')) {
    if (part.type !== 'tool-approval-response' || typeof part.approvalId !== 'string') continue;
    if (!approvalIds.has(part.approvalId)) continue;
    // The latest answer wins; a later denial withdraws an earlier approval.
    found =
      part.approved === true
        ? {
            approvalId: part.approvalId,
            ...(typeof part.reason === 'string' ? { reason: part.reason } : {}),
          }
        : undefined;
  }
  return found;
}

function* contentParts(messages: readonly unknown[], role: string): Generator<Record<string, unknown>> {
  for (const message of messages) {
    if (!isRecord(message) || message.role !== role || !Array.isArray(message.content)) continue;
    for (const part of message.content) if (isRecord(part)) yield part;
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
