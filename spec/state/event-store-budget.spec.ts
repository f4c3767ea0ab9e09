import { ToolInputError } from '../../lib/errors/tool-input-error';
import { DEFAULT_MAX_EVENT_STORE_BYTES, EventStoreBudget } from '../../lib/state/event-store-budget';

describe('EventStoreBudget', () => {
  it('bounds 64 MiB by default', () => {
    expect(DEFAULT_MAX_EVENT_STORE_BYTES).toBe(64 * 1024 * 1024);
    expect(new EventStoreBudget().maxBytes).toBe(DEFAULT_MAX_EVENT_STORE_BYTES);
  });

  describe('charge', () => {
    it('evicts the oldest entries until the total is within the bound again, never the new one', () => {
      const budget = new EventStoreBudget({ maxBytes: 100 });
      const evicted: string[] = [];
      for (const name of ['a', 'b', 'c']) budget.charge(30, () => evicted.push(name));
      expect(budget.usedBytes).toBe(90);
      budget.charge(50, () => evicted.push('d'));
      expect(evicted).toEqual(['a', 'b']);
      expect(budget.usedBytes).toBe(80);
      budget.charge(100, () => evicted.push('e'));
      expect(evicted).toEqual(['a', 'b', 'c', 'd']);
      expect(budget.usedBytes).toBe(100);
    });

    it('skips entries released meanwhile, and a second release changes nothing', () => {
      const budget = new EventStoreBudget({ maxBytes: 100 });
      const evicted: string[] = [];
      const first = budget.charge(40, () => evicted.push('first'));
      budget.charge(40, () => evicted.push('second'));
      budget.release(first);
      budget.release(first);
      expect(budget.usedBytes).toBe(40);
      budget.charge(70, () => evicted.push('third'));
      expect(evicted).toEqual(['second']);
      expect(budget.usedBytes).toBe(70);
    });
  });

  it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY])(
    'refuses maxBytes %p with ToolInputError',
    (maxBytes) => {
      const create = () => new EventStoreBudget({ maxBytes });
      expect(create).toThrow(ToolInputError);
      expect(create).toThrow(
        `EventStoreBudget maxBytes must be a whole number of at least 1, got ${String(maxBytes)}.`,
      );
    },
  );
});
