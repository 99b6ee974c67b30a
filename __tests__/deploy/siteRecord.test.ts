/** @jest-environment node */
/**
 * A deploy takes out/ and the authorizer folder of one finished build: the authorizer decides by
 * path with its build's rules, and out/ of another build may hold a page those rules narrowed.
 */
import path from 'node:path'
import { assertBuiltTogether, OtherBuildError, writeSiteRecord } from '../../edge/siteRecord'
import { tempSite } from '../fixtures/tempSite'

const DIGEST = 'a'.repeat(64)

test('out/ and the authorizer of one build pass; another build, no link or no record of out/ is refused, naming what to deploy', () => {
  const edge = tempSite('site-record-')
  expect(() => assertBuiltTogether(edge, '/site/out', DIGEST)).toThrow(`${path.join(edge, 'site-record.txt')} is missing, so nothing says which out/ its authorizer was built with`)
  writeSiteRecord(edge, DIGEST)
  expect(() => assertBuiltTogether(edge, '/site/out', DIGEST)).not.toThrow()
  expect(() => assertBuiltTogether(edge, '/site/out', 'b'.repeat(64))).toThrow(new OtherBuildError(`the authorizer in ${edge} was built with another out/ than /site/out (another build, whose rules may differ): deploy the out/ and the edge/dist of one finished build (npm run build:prod writes both)`))
  expect(() => assertBuiltTogether(edge, '/site/out', null)).toThrow('/site/out has no record of a finished build')
})
