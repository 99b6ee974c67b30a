// Tests against the built site: the leak audit, attacks through the real server, and browser
// tests in Debian's Chromium. `npm test` builds the audit site first (scripts/test.mjs).
const nextJest = require('next/jest')
const path = require('node:path')

module.exports = nextJest({ dir: path.resolve(__dirname, '..') })({
  rootDir: path.resolve(__dirname, '..'),
  testEnvironment: 'node',
  testMatch: ['<rootDir>/e2e/**/*.test.ts'],
  // The MCP Inspector's own install (e2e/inspector) holds no test of ours.
  modulePathIgnorePatterns: ['<rootDir>/e2e/inspector/'],
  globalSetup: '<rootDir>/e2e/globalSetup.ts',
  globalTeardown: '<rootDir>/e2e/globalTeardown.ts',
  testTimeout: 60000,
  maxWorkers: 1,
})
