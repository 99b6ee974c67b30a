/**
 * nextra-theme-docs (and nextra) ship as ES modules only, which Jest's CommonJS runtime cannot
 * load and next/jest does not transform. This bundles the real, unmodified theme into one
 * CommonJS file (React and Next stay external, so the test's React and its `next/router` mock
 * are the ones the theme uses), once per installed version, and returns its path. Use with
 *   jest.mock('nextra-theme-docs', () => require(nextraThemeDocsBundle()))
 */
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

const root = path.resolve(__dirname, '../../..')

function versionOf(pkg: string): string {
  return JSON.parse(fs.readFileSync(path.join(root, 'node_modules', pkg, 'package.json'), 'utf8')).version
}

export function nextraThemeDocsBundle(): string {
  // The bundle requires React and Next by absolute path, so it is per checkout as well as per version.
  const checkout = createHash('sha256').update(root).digest('hex').slice(0, 12)
  const key = [checkout, ...['nextra-theme-docs', 'nextra', 'next-themes', 'esbuild'].map((pkg) => `${pkg}@${versionOf(pkg)}`)].join('_')
  const out = path.join(os.tmpdir(), `jest-nextra-theme-docs-${key.replace(/[^\w.@-]+/g, '_')}.cjs`)
  if (fs.existsSync(out)) return out
  const tmp = `${out}.${process.pid}.tmp`
  // esbuild's JS API refuses to run inside jsdom (its TextEncoder check), so build in a child Node.
  const options = {
    entryPoints: [path.join(root, 'node_modules/nextra-theme-docs/dist/index.js')],
    bundle: true,
    format: 'cjs',
    platform: 'node',
    mainFields: ['browser', 'module', 'main'],
    conditions: ['browser', 'import'],
    loader: { '.css': 'empty' },
    outfile: tmp,
    logLevel: 'error',
  }
  // React and Next stay outside the bundle, required by absolute path (the bundle lives in the
  // temp dir, where a bare 'react' would not resolve); Jest maps those paths to the same
  // modules, and mocks, that the test itself uses.
  const shared = /^(react|react-dom|next)(\/|$)/
  const script = `
    const root = ${JSON.stringify(root)}
    require('esbuild').build({ ...${JSON.stringify(options)}, plugins: [{
      name: 'shared-externals',
      setup(build) {
        build.onResolve({ filter: ${shared} }, (args) => ({ path: require.resolve(args.path, { paths: [root] }), external: true }))
      },
    }] }).catch((error) => { console.error(error); process.exit(1) })`
  execFileSync(process.execPath, ['-e', script], { cwd: root, stdio: 'pipe' })
  fs.renameSync(tmp, out)
  return out
}
