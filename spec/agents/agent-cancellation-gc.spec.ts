import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const root = join(__dirname, '..', '..');
const script = join(root, 'spec', 'fixtures', 'runtime', 'cancel-after-gc.ts');

interface Outcome {
  outcome: string;
  message: string;
  listenersLeft: number;
}

describe('Agent', () => {
  describe('callToolInContext with a context created inline, after garbage collection', () => {
    let outcomes: Record<string, Outcome>;

    beforeAll(() => {
      // A real `node --expose-gc` subprocess forces collection while the calls wait, then aborts their signals.
      const output = execFileSync(
        process.execPath,
        ['--expose-gc', '--no-warnings', '-r', 'ts-node/register/transpile-only', script],
        { cwd: root, encoding: 'utf8' },
      );
      outcomes = JSON.parse(output) as Record<string, Outcome>;
    });

    it('rejects with ToolCancelledError when the signal aborts while the tool runs', () => {
      expect(outcomes.tool.outcome).toBe('ToolCancelledError');
      expect(outcomes.tool.message).toMatch(
        /was canceled \(stopped by the test\); tool 'wait_for_abort' was stopped before it finished/,
      );
      // The waiting call stays attached to the outside signal through collection.
      expect(outcomes.tool.listenersLeft).toBe(1);
    });

    it('rejects with ToolCancelledError when the signal aborts while the approval is pending', () => {
      expect(outcomes.approval.outcome).toBe('ToolCancelledError');
      expect(outcomes.approval.message).toMatch(
        /The approval for tool 'write_record' was still pending when run .* was canceled \(stopped by the test\)/,
      );
    });

    it("reaches a child context through its parent when the parent's signal aborts", () => {
      expect(outcomes.child.outcome).toBe('ToolCancelledError');
      expect(outcomes.child.message).toMatch(/tool 'wait_for_abort' was stopped before it finished/);
    });

    it('lets settled calls go: no listener stays on a long-lived signal', () => {
      expect(outcomes.settled).toEqual({ outcome: 'resolved', message: '', listenersLeft: 0 });
    });
  });
});
