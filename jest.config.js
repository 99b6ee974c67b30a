// Unit, component and integration tests. Browser tests live in e2e/ and run under Playwright.
const nextJest = require('next/jest')

const createJestConfig = nextJest({ dir: __dirname })

module.exports = createJestConfig({
  testEnvironment: 'jsdom',
  setupFilesAfterEnv: ['<rootDir>/__tests__/setup.ts'],
  testMatch: ['<rootDir>/__tests__/**/*.test.ts?(x)', '<rootDir>/infra/test/**/*.test.ts'],
  testPathIgnorePatterns: ['/node_modules/', '/.next/', '/out/'],
  modulePathIgnorePatterns: ['<rootDir>/.next/', '<rootDir>/out/', '<rootDir>/infra/cdk.out/', '<rootDir>/e2e/inspector/'],
  // One test file per core: most files use one, and the integration files' builds leave gaps.
  maxWorkers: '100%',
  testSequencer: '<rootDir>/__tests__/integrationFirst.js',
})
