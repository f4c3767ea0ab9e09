import { ToolInputError } from '../../lib/errors/tool-input-error';
import { ApprovalDecision } from '../../lib/policy/approval-decision';
import { PolicyDecision } from '../../lib/policy/policy-decision';

describe('PolicyDecision', () => {
  describe('toDict', () => {
    it('round-trips through fromDict', () => {
      const decision = new PolicyDecision({
        effect: 'approval',
        reason: 'Approval required for capabilities: a',
        policyName: 'p',
        matchedCapabilities: ['a'],
        metadata: { capabilities: { a: 'require_approval' } },
      });
      expect(decision.effect).toBe('require_approval');
      expect(decision.allowed).toBe(false);
      expect(PolicyDecision.fromDict(JSON.parse(JSON.stringify(decision.toDict()))).toDict()).toEqual(
        decision.toDict(),
      );
    });
  });

  describe('fromDict', () => {
    it('reads a missing effect as deny (fail closed) and rejects non-objects', () => {
      expect(PolicyDecision.fromDict({}).effect).toBe('deny');
      expect(() => PolicyDecision.fromDict('allow')).toThrow(ToolInputError);
      expect(() => PolicyDecision.fromDict('allow')).toThrow('PolicyDecision.fromDict() needs an object');
      expect(() => new PolicyDecision({ effect: 'perhaps' })).toThrow(
        'PolicyDecision effect has the unsupported policy effect "perhaps"',
      );
    });
  });
});

describe('ApprovalDecision', () => {
  describe('constructor', () => {
    it('throws ToolInputError without a boolean approved or a request id', () => {
      expect(() => new ApprovalDecision({ approved: 'yes' as never, requestId: 'r' })).toThrow(
        ToolInputError,
      );
      expect(() => new ApprovalDecision({ approved: 'yes' as never, requestId: 'r' })).toThrow(
        'new ApprovalDecision() needs { approved: true | false, requestId: request.requestId }.',
      );
      expect(() => new ApprovalDecision({ approved: true, requestId: '' })).toThrow(
        'An ApprovalDecision needs the requestId',
      );
    });
  });

  describe('fromDict', () => {
    it('round-trips, and reads anything but approved: true as not approved', () => {
      const decision = new ApprovalDecision({
        approved: true,
        requestId: 'approval_1',
        reason: 'fine',
        decidedBy: 'ada',
      });
      expect(ApprovalDecision.fromDict(decision.toDict()).toDict()).toEqual(decision.toDict());
      expect(ApprovalDecision.fromDict({ requestId: 'approval_1', approved: 'true' }).approved).toBe(false);
      expect(() => ApprovalDecision.fromDict(null)).toThrow('ApprovalDecision.fromDict() needs an object');
    });
  });
});
