import { execFile } from 'node:child_process';
import { existsSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { AI_SDK_7_VERSION, compileIntoAiSdk7Cache, ensureAiSdk7 } from '../fixtures/ai-sdk-7/ai-sdk-7-cache';
import { resolveNode22 } from '../fixtures/conformance/node22';

/**
 * `protolink/ai-sdk` with AI SDK 7 on Node 22: AI SDK 7 is ESM-only and needs Node ≥ 22, so it is no
 * dependency of the project. It is installed once per checkout in node_modules/.cache, the bridge and
 * spec/fixtures/ai-sdk-7/run-ai-sdk-7.ts are compiled into it with the project's tsc, and the script runs on
 * a Node 22 binary, driving `generateText` of AI SDK 7 with its own mock models (`MockLanguageModelV4`, the
 * v7 model interface, and `MockLanguageModelV3`), and prints what it saw.
 */

interface ErrorSeen {
  name: string;
  message: string;
  isToolValidationError: boolean;
  isApprovalRequiredError: boolean;
  code?: string;
  issuePaths?: string[];
}

interface Scenarios {
  coercion: { text: string; calls: unknown[]; toolResults: unknown[]; seenByModel: unknown[] };
  validationError: {
    text: string;
    calls: unknown[];
    errors: ErrorSeen[];
    seenByModel: { type: string; value?: string }[];
  };
  approvedBySdk: ApprovalSeen;
  deniedBySdk: ApprovalSeen;
  cancellation: {
    rejected?: ErrorSeen;
    cancellation: { started: boolean; canceled: boolean; reason?: string };
    modelCalls: number;
  };
}

interface ApprovalSeen {
  requested: boolean;
  request?: { toolName: string; toolCallId: string };
  approvalId?: string;
  callsBeforeAnswer: unknown[];
  text?: string;
  calls?: unknown[];
  approvals?: { previews: unknown[]; decision?: Record<string, unknown> }[];
  seenByModel?: unknown[];
}

interface Report {
  node: string;
  aiVersion: string;
  aiResolvedTo: string;
  hasMockLanguageModelV4: boolean;
  v4?: Scenarios;
  v3: Scenarios;
}

const run = promisify(execFile);
let report: Report;
let buildDir: string | undefined;

beforeAll(async () => {
  const node22 = resolveNode22();
  const cache = ensureAiSdk7();
  const { dir, diagnostics } = await compileIntoAiSdk7Cache('spec/fixtures/ai-sdk-7/run-ai-sdk-7.ts');
  buildDir = dir;
  const script = join(dir, 'spec', 'fixtures', 'ai-sdk-7', 'run-ai-sdk-7.js');
  if (!existsSync(script)) throw new Error(`tsc emitted no ${script}:\n${diagnostics}`);
  try {
    const { stdout } = await run(node22, [script], {
      cwd: cache,
      timeout: 60_000,
      env: { ...process.env, NODE_PATH: '' },
    });
    report = JSON.parse(stdout.trim().split('\n').pop() ?? '') as Report;
  } catch (error) {
    const failed = error as { stderr?: string; message: string };
    throw new Error(`The AI SDK 7 run failed: ${failed.stderr || failed.message}\n${diagnostics}`);
  }
}, 300_000);

afterAll(() => {
  if (buildDir) rmSync(buildDir, { recursive: true, force: true });
});

describe('protolink/ai-sdk with AI SDK 7 on Node 22', () => {
  it('loads AI SDK 7 (ESM) from the CommonJS bridge on Node 22', () => {
    expect(Number(report.node.split('.')[0])).toBeGreaterThanOrEqual(22);
    expect(report.aiVersion).toBe(AI_SDK_7_VERSION);
    expect(report.aiResolvedTo).toContain(join('protolink-ai-sdk-7', 'node_modules', 'ai'));
    expect(report.hasMockLanguageModelV4).toBe(true);
  });

  describe.each(['v4', 'v3'] as const)('with MockLanguageModel%s', (version) => {
    const scenarios = (): Scenarios => {
      const found = report[version];
      if (!found) throw new Error(`the run has no ${version} results`);
      return found;
    };

    it('validates and coerces "3" to 3 before the tool runs, and the result reaches the next step', () => {
      const { coercion } = scenarios();
      expect(coercion.calls).toEqual([{ tool: 'add', args: { a: 3, b: 4 } }]);
      expect(coercion.toolResults).toEqual([{ sum: 7 }]);
      expect(coercion.seenByModel).toEqual([{ type: 'json', value: { sum: 7 } }]);
      expect(coercion.text).toBe('seven');
    });

    it('gives every validation problem back to the model as a tool error, without running the tool', () => {
      const { validationError } = scenarios();
      expect(validationError.calls).toEqual([]);
      expect(validationError.errors).toHaveLength(1);
      expect(validationError.errors[0]).toMatchObject({
        name: 'ToolValidationError',
        isToolValidationError: true,
        issuePaths: ['a', 'b', 'note'],
      });
      const [seen] = validationError.seenByModel;
      expect(seen.type).toBe('error-text');
      expect(seen.value).toContain("Invalid arguments for tool 'add'");
      expect(seen.value).toMatch(/a: .*;.*b: .*;.*note: /);
      expect(validationError.text).toBe('sorry');
    });

    it("turns require_approval into AI SDK 7's needsApproval flow and records the approval", () => {
      const { approvedBySdk } = scenarios();
      expect(approvedBySdk.requested).toBe(true);
      expect(approvedBySdk.request).toEqual({ toolName: 'publish', toolCallId: 'c1' });
      expect(approvedBySdk.callsBeforeAnswer).toEqual([]);
      expect(approvedBySdk.calls).toEqual([{ tool: 'publish', args: { title: 'Hello' } }]);
      expect(approvedBySdk.approvals).toEqual([
        {
          previews: ['Would publish "Hello"'],
          decision: {
            approved: true,
            decidedBy: 'ai-sdk',
            reason: 'checked',
            metadata: { approvalId: approvedBySdk.approvalId, toolCallId: 'c1' },
            answersRequest: true,
          },
        },
      ]);
      expect(approvedBySdk.seenByModel).toEqual([{ type: 'text', value: 'published: Hello' }]);
      expect(approvedBySdk.text).toBe('published');
    });

    it('never runs a call denied through AI SDK 7; the model is told it was denied', () => {
      const { deniedBySdk } = scenarios();
      expect(deniedBySdk.requested).toBe(true);
      expect(deniedBySdk.calls).toEqual([]);
      expect(deniedBySdk.approvals).toEqual([]);
      expect(deniedBySdk.seenByModel).toEqual([{ type: 'execution-denied', reason: 'checked' }]);
    });

    it("cancels a slow tool's run context when the AI SDK 7 abortSignal aborts", () => {
      const { cancellation } = scenarios();
      expect(cancellation.cancellation).toEqual({
        started: true,
        canceled: true,
        reason: 'user pressed stop',
      });
      expect(cancellation.rejected?.message).toBe('user pressed stop');
      expect(cancellation.modelCalls).toBe(1);
    });
  });
});
