import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { loadRedisBackend } from '../../lib/server/load-redis-backend';

const run = promisify(execFile);
const root = join(__dirname, '../..');
const hideModules = join(root, 'spec/fixtures/peers/hide-modules.js');

function nodeWithoutRedis(script: string) {
  return run(process.execPath, ['-r', hideModules, '-r', 'ts-node/register/transpile-only', '-e', script], {
    cwd: root,
    env: { ...process.env, HIDE_MODULES: 'redis,@redis' },
  });
}

describe('loadRedisBackend', () => {
  it('returns createRedisBackend of protolink/redis when redis is installed', () => {
    expect(loadRedisBackend()).toBe(require('../../lib/redis/create-redis-backend').createRedisBackend);
  });

  it('without the redis package: startAgentServer({ redis }) names the package to install, and serving without redis works', async () => {
    const { stdout } = await nodeWithoutRedis(`
      require('reflect-metadata');
      const { startAgentServer } = require('./lib/server/index.ts');
      const { createFakeAgent } = require('./spec/fixtures/serve/fake-agent.ts');
      (async () => {
        const error = await startAgentServer(createFakeAgent(), { redis: 'redis://127.0.0.1:6379' }).catch((caught) => caught);
        console.log(JSON.stringify({ name: error.name, message: error.message }));
        const handle = await startAgentServer(createFakeAgent());
        console.log(JSON.stringify({ served: handle.port > 0 }));
        await handle.close();
      })();
    `);
    const [failure, served] = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(failure).toEqual({
      name: 'ToolInputError',
      message:
        "The server option 'redis' (protolink/redis) needs the optional peer dependency redis, and it could not be loaded. Install it with: npm install redis",
    });
    expect(served).toEqual({ served: true });
  }, 60_000);
});
