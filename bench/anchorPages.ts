/**
 * Puts the anchors' generated pages (`node gen-pages.mjs <dir> <N> nextra`, from ../shared/anchors)
 * into a copy of this project, so our build and the Docusaurus reference build the same page bodies.
 *
 * gen-pages writes a bare Nextra layout:
 *   <dir>/pages/docs/_meta.ts                 the sections as top-level tabs
 *   <dir>/pages/docs/<section>/…/<slug>.mdx   page bodies, `_meta.ts` (`export default {}`) per folder
 *   <dir>/public/img/diagram-<i>.png          linked as `![…](/img/diagram-<i>.png)`
 *   <dir>/routes.txt                          one URL path per page
 *
 * Our site differs in three places, and each is adapted here rather than in the site:
 * - Sections live in content/docs/<section>/ (pages/docs is a symlink to it) and become tabs
 *   through pages/_meta.ts and the build's page-map scoping, so gen-pages' top-level
 *   pages/docs/_meta.ts is not used.
 * - Images belong under the section's own path (public/docs/<section>/images/) so they follow the
 *   section's access rule; a file under /img/ would fall to the full-access fallback and a
 *   section's readers could not load it. Each `/img/…` link is rewritten to the page's section
 *   and the file moves with it. Nothing else in a page body changes.
 * - Each section's entry page (access.config.ts `entry`, e.g. /docs/leads/intro) is what its
 *   navbar tab and home card link to. The hand-written entry pages link to the other hand-written
 *   pages, which are removed, so a one-paragraph stub stands in for each.
 *
 * Everything else under a section (our hand-written pages and images) is removed: the comparison
 * is the same N generated pages. The home page (pages/index.mdx) and the docs root
 * (content/docs/index.mdx) stay, as Docusaurus keeps its own home page.
 */
import fs from 'node:fs'
import path from 'node:path'

export interface AnchorSection {
  id: string
  title: string
  description: string
  /** The section's entry page, a route such as /docs/leads/intro. */
  href: string
}

export interface PlacedPages {
  /** Generated pages now under content/docs/, as project-relative paths, in gen-pages' order. */
  pages: string[]
  /** Entry-page stubs written because gen-pages wrote no page at the entry route. */
  stubs: string[]
  /** Image files moved under public/docs/<section>/images/. */
  images: number
}

const IMAGE_LINK = /(\]\(\s*<?)\/img\/([^)\s>]+)/g

/** Moves gen-pages' nextra output in `generated` into `project`'s content layout. */
export function placeAnchorPages(generated: string, project: string, sections: readonly AnchorSection[]): PlacedPages {
  const sourceDocs = path.join(generated, 'pages/docs')
  const sourceImages = path.join(generated, 'public/img')
  const routesFile = path.join(generated, 'routes.txt')
  if (!fs.existsSync(sourceDocs) || !fs.existsSync(routesFile)) throw new Error(`${generated} holds no gen-pages nextra output (pages/docs/, routes.txt)`)
  const ids = new Set(sections.map((section) => section.id))
  const generatedSections = fs.readdirSync(sourceDocs, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name)
  const unknown = generatedSections.filter((id) => !ids.has(id))
  // A section the site does not declare would be a page tree no rule or tab covers; fail loudly instead.
  if (unknown.length) throw new Error(`gen-pages wrote section(s) ${unknown.join(', ')}, which access.config.ts does not declare`)

  const docs = path.join(project, 'content/docs')
  for (const { id } of sections) {
    fs.rmSync(path.join(docs, id), { recursive: true, force: true })
    fs.rmSync(path.join(project, 'public/docs', id), { recursive: true, force: true })
  }

  let images = 0
  const usedImages = new Set<string>()
  for (const id of generatedSections) {
    const from = path.join(sourceDocs, id)
    const to = path.join(docs, id)
    fs.cpSync(from, to, { recursive: true })
    for (const entry of fs.readdirSync(to, { withFileTypes: true, recursive: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.mdx')) continue
      const file = path.join(entry.parentPath, entry.name)
      const text = fs.readFileSync(file, 'utf8')
      const rewritten = text.replace(IMAGE_LINK, (_match, opening: string, name: string) => {
        const image = path.join(sourceImages, name)
        if (!fs.existsSync(image)) throw new Error(`${path.relative(generated, path.join(from, path.relative(to, file)))} links /img/${name}, which gen-pages did not write`)
        const target = path.join(project, 'public/docs', id, 'images', name)
        if (!fs.existsSync(target)) {
          fs.mkdirSync(path.dirname(target), { recursive: true })
          fs.copyFileSync(image, target)
          images++
        }
        usedImages.add(name)
        return `${opening}/docs/${id}/images/${name}`
      })
      if (rewritten !== text) fs.writeFileSync(file, rewritten)
    }
  }
  // gen-pages links every image it writes; should one ever be unlinked, it stays at its own URL
  // (Docusaurus ships its whole static/ folder too).
  if (fs.existsSync(sourceImages)) {
    for (const name of fs.readdirSync(sourceImages)) {
      if (usedImages.has(name)) continue
      fs.mkdirSync(path.join(project, 'public/img'), { recursive: true })
      fs.copyFileSync(path.join(sourceImages, name), path.join(project, 'public/img', name))
    }
  }

  const stubs: string[] = []
  for (const section of sections) {
    const relative = section.href.replace(/^\/docs\//, '')
    const entryFile = path.join(docs, `${relative}.mdx`)
    const entryIndex = path.join(docs, relative, 'index.mdx')
    if (fs.existsSync(entryFile) || fs.existsSync(entryIndex)) continue
    fs.mkdirSync(path.dirname(entryFile), { recursive: true })
    fs.writeFileSync(entryFile, `---\ntitle: ${JSON.stringify(section.title)}\ndescription: ${JSON.stringify(section.description)}\n---\n\n# ${section.title}\n\nGenerated documentation.\n`)
    stubs.push(path.relative(project, entryFile))
    // gen-pages writes `export default {}` for each section; list the entry first so the tab opens
    // on it, as our own _meta.ts files do. An entry deeper in the tree keeps alphabetical order.
    const [folder, name] = [path.dirname(relative), path.basename(relative)]
    if (folder === section.id) fs.writeFileSync(path.join(docs, section.id, '_meta.ts'), `export default {\n  ${JSON.stringify(name)}: 'Introduction',\n}\n`)
  }

  const pages = fs.readFileSync(routesFile, 'utf8').split('\n').filter(Boolean).map((route) => {
    const file = path.join('content', `${route}.mdx`)
    if (!fs.existsSync(path.join(project, file))) throw new Error(`gen-pages listed ${route}, but ${file} is missing after the copy`)
    return file
  })
  return { pages, stubs, images }
}
