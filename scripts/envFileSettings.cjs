/**
 * Next loads the `.env` files into the processes it runs (`next build`, `next dev`, the renderer),
 * while the build's and `npm run dev`'s own processes, and `npm run deploy:access`, read the
 * environment they were started with. A DOCS_ setting in such a file reaches some processes of a
 * build and not others: the build ID, made of those settings, then differs between them and the
 * build fails on it, and an out/ half for production is left. So the settings come from the
 * environment only, and one in a `.env` file is refused, named with its file.
 * Plain CommonJS, for pipeline/steps/build.cjs and scripts/server/startDev.mjs.
 */
'use strict'
const fs = require('node:fs')
const path = require('node:path')

/** Every file Next's `loadEnvConfig` reads, in any mode (production, development, test). */
const NEXT_ENV_FILES = ['.env', '.env.local', ...['production', 'development', 'test'].flatMap((mode) => [`.env.${mode}`, `.env.${mode}.local`])]

/** The DOCS_ settings the `.env` files at `root` set: each with its file. */
function docsSettingsInEnvFiles(root) {
  return NEXT_ENV_FILES.flatMap((file) => {
    let text
    try {
      text = fs.readFileSync(path.join(root, file), 'utf8')
    } catch {
      return []
    }
    return [...text.matchAll(/^\s*(?:export\s+)?(DOCS_[A-Za-z0-9_]*)\s*=/gm)].map((match) => ({ file, name: match[1] }))
  })
}

/** Ends the process, naming each DOCS_ setting a `.env` file at `root` holds and the fix, when there is one. */
function refuseDocsSettingsInEnvFiles(root, command) {
  const found = docsSettingsInEnvFiles(root)
  if (found.length === 0) return
  const named = found.map(({ file, name }) => `${file} sets ${name}`).join('; ')
  console.error(`${command}: ${named}. Set DOCS_ settings in the environment (export DOCS_…=…, or your CI's variables), not in a .env file: Next reads those files in some of the build's processes and not in the others, which would build with different settings.`)
  process.exit(1)
}

module.exports = { docsSettingsInEnvFiles, refuseDocsSettingsInEnvFiles }
