/**
 * Jest runs every spec through ts-jest, transpiling each file alone (tsconfig.jest.json); `npm test` type-checks
 * the whole project first (the `pretest` script), so type errors still fail the test command.
 */
module.exports = {
  testEnvironment: 'node',
  roots: ['<rootDir>/spec'],
  testMatch: ['**/*.spec.ts'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: '<rootDir>/tsconfig.jest.json' }] },
  moduleFileExtensions: ['ts', 'js', 'json'],
  testTimeout: 30000,
  // Prints one line naming the Redis suites skipped when there is no redis-server nor REDIS_URL.
  reporters: ['default', '<rootDir>/spec/fixtures/redis/skipped-redis-reporter.js'],
};
