// Unit, component and integration tests. Browser tests live in e2e/ and run under Playwright.
const nextJest = require('next/jest')
const os = require('node:os')

const createJestConfig = nextJest({ dir: __dirname })

// Jest's default is one worker fewer than the cores: on 2 cores, one, in band. The integration
// tests mostly wait on builds in child processes, so a second worker runs the others beside them
// (docs/benchmarks.md, "CI time").
const maxWorkers = Math.max(2, os.cpus().length - 1)

module.exports = createJestConfig({
  testEnvironment: 'jsdom',
  maxWorkers,
  setupFilesAfterEnv: ['<rootDir>/__tests__/setup.ts'],
  testMatch: ['<rootDir>/__tests__/**/*.test.ts?(x)', '<rootDir>/infra/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/.next/', '/out/'],
  modulePathIgnorePatterns: ['<rootDir>/.next/', '<rootDir>/out/', '<rootDir>/infra/cdk.out/', '<rootDir>/e2e/inspector/'],
})
