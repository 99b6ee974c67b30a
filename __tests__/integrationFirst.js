// Jest's order, with the files that build whole sites in copies of the project (__tests__/integration)
// first: each takes minutes, and started first they run beside the rest rather than after it. On a
// fresh machine Jest has no durations yet and would order by file size alone.
const path = require('node:path')
const Sequencer = require('@jest/test-sequencer').default

const builds = (test) => test.path.split(path.sep).join('/').includes('/__tests__/integration/')

module.exports = class IntegrationFirst extends Sequencer {
  sort(tests) {
    const sorted = super.sort(tests)
    return [...sorted.filter(builds), ...sorted.filter((test) => !builds(test))]
  }
}
