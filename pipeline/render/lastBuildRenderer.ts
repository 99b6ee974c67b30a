/**
 * The renderer that stands in for `next build` when the code is the last build's
 * (./renderWithNext.cjs, ./reuseLastBuild.ts), started before the build knows it needs it.
 *
 * Loading Next and its export worker is most of a one-page render, and needs nothing the content
 * steps make, so `warm()` starts the process while content/ is scanned (when .next/ holds a server
 * bundle to render with). `render()` then tells it to render the routes of RENDER_ROUTES into
 * `into`; `close()` tells one that was not needed to exit. A build that never warms it starts it
 * at `render()`.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ChildProcess } from 'node:child_process'
import { DOCS_PAGE } from '../../lib/render/propsOnce'
import { CACHE_PATHS, type SitePaths } from '../steps/paths'
import { startInProduction } from './runInProduction'

const WHAT = "rendering with the last build's server bundle"
const { serverPageFile } = require('./exportInProcess.cjs') as { serverPageFile: (page: string) => string }
/** The one docs route's server bundle, as `next build` names it. */
export const DOCS_SERVER_PAGE = serverPageFile(DOCS_PAGE)
/** The renderer's niceness (0 is the build's, 19 the lowest). */
const RENDERER_NICE = 10

export class LastBuildRenderer {
  /** Where the renderer writes the pages before they move into out/. */
  readonly into: string
  private started: { child: ChildProcess; exited: Promise<void> } | null = null
  private told = false

  constructor(private readonly paths: SitePaths) {
    this.into = path.join(paths.root, CACHE_PATHS.rendered)
  }

  /** Starts the process, if .next/ has a server bundle it could render with. */
  warm(): void {
    if (this.started || this.told || !fs.existsSync(path.join(this.paths.next, DOCS_SERVER_PAGE))) return
    this.start()
  }

  /** Renders the routes of RENDER_ROUTES (written by now) into `into`. */
  async render(): Promise<void> {
    if (this.told) throw new Error('the renderer renders once per build')
    fs.rmSync(this.into, { recursive: true, force: true })
    const { child, exited } = this.started ?? this.start()
    this.told = true
    child.stdin!.end('render\n')
    await exited
  }

  /** Ends a renderer that was not told to render; resolves once it has exited. */
  async close(): Promise<void> {
    if (!this.started || this.told) return
    this.told = true
    this.started.child.stdin!.end()
    // A renderer that could not load says so only when told to render.
    await this.started.exited.catch(() => undefined)
  }

  private start() {
    const script = path.join(__dirname, 'renderWithNext.cjs')
    const started = startInProduction(WHAT, [script, this.paths.next, path.join(this.paths.root, CACHE_PATHS.renderRoutes), this.into, DOCS_PAGE], {
      cwd: this.paths.root,
      // Node's own limit, as Next's export process has (it drops the build's heap setting): it may render there.
      heapMb: null,
      input: true,
    })
    // Below the build's priority (an export process it starts inherits it): it loads beside the content
    // steps, and the build's own thread is a rebuild's longest path (docs/benchmarks.md).
    try {
      os.setPriority(started.child.pid!, RENDERER_NICE)
    } catch {
      // Not allowed here: it runs at the build's priority, only slower.
    }
    // Held here until render() or close() awaits it: an early failure is not unhandled.
    started.exited.catch(() => undefined)
    // The build's end is not held up by a renderer nobody will tell (a failed step's build ends it too).
    started.child.stdin!.on('error', () => undefined)
    this.started = started
    return started
  }
}
