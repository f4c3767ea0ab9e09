// The official MCP conformance suite (server, all 32 scenarios) through a round-robin proxy that ignores
// Mcp-Session-Id, over three `protolink serve … --redis` processes sharing one redis-server: every request of
// a session may land on any process, as behind an ordinary load balancer.
import { join } from 'node:path';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { runConformance } from '../fixtures/conformance/run-conformance';
import type { ConformanceRun } from '../fixtures/conformance/run-conformance';
import { describeWithRedis, startRedisServer } from '../fixtures/redis/redis-server';
import type { RedisServerHandle } from '../fixtures/redis/redis-server';
import type { RoundRobinProxy } from '../fixtures/round-robin-proxy';
import { startServeCluster } from '../fixtures/serve/serve-processes';
import type { ServeCluster } from '../fixtures/serve/serve-processes';
import { SERVER_SCENARIOS } from '../fixtures/conformance/server-scenarios';

jest.setTimeout(600_000);

const ROOT = join(__dirname, '..', '..');

describeWithRedis(
  'MCP conformance suite through a round-robin proxy over three protolink serve --redis',
  () => {
    let redis: RedisServerHandle;
    let cluster: ServeCluster | undefined;
    let proxy: RoundRobinProxy;
    let outputDir: string;
    let run: ConformanceRun;

    beforeAll(async () => {
      redis = await startRedisServer();
      // The processes know the address clients use (the proxy's), as behind any load balancer.
      cluster = await startServeCluster(3, redis, {
        module: join(ROOT, 'samples', '09-mcp-conformance', 'server.ts'),
        publicHostname: 'localhost',
        readyTimeoutMs: 240_000,
      });
      ({ proxy } = cluster);
      outputDir = mkdtempSync(join(tmpdir(), 'protolink-conformance-scale-out-'));
      run = await runConformance(['server', '--url', proxy.mcpUrl, '--suite', 'all'], outputDir);
    });

    afterAll(async () => {
      await cluster?.close();
      await redis?.dispose();
      if (outputDir) rmSync(outputDir, { recursive: true, force: true });
    });

    it('spreads the requests over every process', () => {
      expect(proxy.requestsPerTarget.every((count) => count > 10)).toBe(true);
    });

    it('exits 0: every scenario passes, with no baseline of expected failures', () => {
      if (run.code !== 0) throw new Error(`conformance exited with ${run.code}:\n${run.output}`);
      expect(run.checks.size).toBe(SERVER_SCENARIOS.length);
    });

    it.each(SERVER_SCENARIOS)('passes %s with no failure and no warning', (scenario) => {
      const checks = run.checks.get(scenario);
      expect(checks).toBeDefined();
      const problems = checks!.filter((check) => check.status === 'FAILURE' || check.status === 'WARNING');
      expect(problems).toEqual([]);
      expect(checks!.some((check) => check.status === 'SUCCESS')).toBe(true);
    });
  },
);
