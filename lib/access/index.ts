import config from '../../access.config'
import { compileAccess } from './compileAccess'
import { decideAccess } from './decideAccess'
import type { AccessUser, Decision } from './types'

export { compileAccess } from './compileAccess'
export type { CompiledAccess } from './compileAccess'
export { decideAccess, describeRule, governingRuleOf, governsOwnPath, readersOfMayOpen, requirementFor, requirementOf, type GoverningRule } from './decideAccess'
export { normalisePath, isUnderPrefix } from './normalisePath'
export { AccessConfigError } from './errors'
export type { AccessConfig, AccessUser, Decision, ListName, PathRule, Requirement } from './types'

/** The shipped configuration, compiled once per process. */
export const access = compileAccess(config)

/** `decideAccess` bound to the shipped configuration. */
export function decide(path: string, user: AccessUser): Decision {
  return decideAccess(access, path, user)
}
