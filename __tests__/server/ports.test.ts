/** @jest-environment node */
import { portOf, SITE_PORT } from '../../scripts/server/ports'
import { startLocalCognito } from '../../scripts/cognito/localCognito'
import { startLocalStack } from '../../scripts/server/startStack'

jest.mock('../../scripts/cognito/localCognito', () => ({ startLocalCognito: jest.fn() }))

test.each([
  ['', 3000, true, 3000],
  [undefined, 3000, false, 3000],
  ['8080', 3000, false, 8080],
  ['65535', 3000, false, 65535],
  ['0', 3000, true, 0],
])('PORT=%p reads as the port it names, or the default when unset', (value, fallback, zeroPicksFree, port) => {
  expect(portOf('PORT', value, fallback, zeroPicksFree)).toBe(port)
})

test.each([
  ['abc', false, 'PORT must be a port number (1-65535), not "abc"'],
  ['0', false, 'PORT must be a port number (1-65535), not "0"'],
  ['65536', true, 'PORT must be a port number (0-65535; 0 picks a free one), not "65536"'],
  ['-1', true, 'PORT must be a port number (0-65535; 0 picks a free one), not "-1"'],
  ['30 00', false, 'PORT must be a port number (1-65535), not "30 00"'],
])('PORT=%p is refused with the variable named', (value, zeroPicksFree, message) => {
  expect(() => portOf('PORT', value, SITE_PORT, zeroPicksFree)).toThrow(message)
})

test("npm start's stack refuses a bad PORT by name before it starts the local Cognito", async () => {
  const before = process.env.PORT
  process.env.PORT = '3x00'
  try {
    await expect(startLocalStack()).rejects.toThrow('PORT must be a port number (0-65535; 0 picks a free one), not "3x00"')
    expect(startLocalCognito).not.toHaveBeenCalled()
  } finally {
    if (before === undefined) delete process.env.PORT
    else process.env.PORT = before
  }
})
