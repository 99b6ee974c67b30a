/**
 * The budget's reference: a bare Nextra 3 docs site (the same Next, Nextra and React versions,
 * docs theme, no auth, no search) with one page, built in a temporary directory.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { firstLoadJs } from './pageWeight'

const FILES: Record<string, string> = {
  'package.json': '{ "name": "bare-nextra", "private": true }\n',
  'next.config.mjs': `import nextra from 'nextra'\nexport default nextra({ theme: 'nextra-theme-docs', themeConfig: './theme.config.jsx', search: false })({ output: 'export', images: { unoptimized: true } })\n`,
  'theme.config.jsx': 'export default { logo: <b>Docs</b> }\n',
  'pages/_app.jsx': 'export default function App({ Component, pageProps }) { return <Component {...pageProps} /> }\n',
  'pages/docs/page.mdx': '---\ntitle: Page\n---\n# Page\n\nText.\n\n## Section\n\n```ts\nconst x = 1\n```\n',
}

export function bareNextraFirstLoadJs(root = process.cwd()): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-bare-nextra-'))
  try {
    for (const [file, text] of Object.entries(FILES)) {
      fs.mkdirSync(path.dirname(path.join(dir, file)), { recursive: true })
      fs.writeFileSync(path.join(dir, file), text)
    }
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(dir, 'node_modules'))
    execFileSync(process.execPath, [path.join(root, 'node_modules/next/dist/bin/next'), 'build'], {
      cwd: dir,
      stdio: 'ignore',
      env: { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' },
    })
    return firstLoadJs(dir, '/docs/page')
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
