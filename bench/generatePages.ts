import fs from 'node:fs'
import path from 'node:path'
import { SECTIONS as SITE_SECTIONS } from '../lib/navigation/siteNavigation'

const SECTIONS = SITE_SECTIONS.map((section) => section.id)

/**
 * Adds `count` generated MDX pages over the three sections (content/docs/<section>/generated/):
 * headings, a code block and a table on each page, an image on every 10th. Returns one page's path
 * (for the rebuild-after-edit measurement).
 */
export function generatePages(dest: string, count: number): string {
  let first = ''
  for (let i = 0; i < count; i++) {
    const section = SECTIONS[i % SECTIONS.length]
    const dir = path.join(dest, 'content/docs', section, 'generated')
    fs.mkdirSync(dir, { recursive: true })
    const image = i % 10 === 0 ? `\n![Generated diagram ${i}](/docs/${section}/images/generated.svg)\n` : ''
    const file = path.join(dir, `page-${String(i).padStart(4, '0')}.mdx`)
    fs.writeFileSync(
      file,
      `---\ntitle: Generated page ${i}\ndescription: Generated page ${i} for build benchmarks.\n---\n\n# Generated page ${i}\n\nIntro paragraph for page ${i} in the ${section} section.\n${image}\n## Overview ${i}\n\nText about topic ${i} with **bold** words and a [link](/docs/${section}/generated/page-${String(i).padStart(4, '0')}#details-${i}).\n\n### Details ${i}\n\n| Field | Type | Meaning |\n| --- | --- | --- |\n| id | string | Identifier ${i} |\n| amount | number | Amount in pence |\n\n## Example ${i}\n\n\`\`\`ts\nexport function handler${i}(event: { id: string }) {\n  return { statusCode: 200, body: JSON.stringify({ id: event.id, page: ${i} }) }\n}\n\`\`\`\n`
    )
    if (!first) first = file
  }
  for (const section of SECTIONS) {
    const images = path.join(dest, 'public/docs', section, 'images')
    fs.mkdirSync(images, { recursive: true })
    fs.writeFileSync(path.join(images, 'generated.svg'), '<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><rect width="200" height="100" fill="#ddd"/></svg>\n')
  }
  return first
}
