import { allocatedBytes, redisEventCost, redisStreamCost } from '../../lib/redis/redis-event-cost';

describe('Redis event costs', () => {
  it("rounds a block up to jemalloc's size classes, four per doubling", () => {
    const cases: [number, number][] = [
      [1, 16],
      [16, 16],
      [17, 32],
      [100, 112],
      [129, 160],
      [4096, 4096],
      [4097, 5120],
      [500_064, 524_288],
      [524_289, 655_360],
    ];
    for (const [asked, given] of cases) expect([asked, allocatedBytes(asked)]).toEqual([asked, given]);
  });

  it('charges an event at least its JSON, rounded to its block, and more for a longer stream id', () => {
    expect(redisEventCost(500_000, 'a')).toBeGreaterThanOrEqual(524_288);
    expect(redisEventCost(10, 'b'.repeat(200))).toBeGreaterThan(redisEventCost(10, 'b'));
  });

  it('charges a stream the 4 kB Redis reserves for its newest node, and more for a longer key', () => {
    expect(redisStreamCost('k:a', 'a')).toBeGreaterThan(4096);
    expect(redisStreamCost(`k:${'a'.repeat(300)}`, 'a')).toBeGreaterThan(redisStreamCost('k:a', 'a'));
  });
});
