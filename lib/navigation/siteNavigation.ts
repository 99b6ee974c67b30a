import config from '../../access.config'
import type { SectionDeclaration } from '../access/types'

/** Each section as its navbar tab and home card link it. */
export const sectionLinks = (sections: readonly SectionDeclaration[]) => sections.map(({ id, title, description, entry }) => ({ id, title, description, href: entry }))

/**
 * The sections, in navbar order, as access.config.ts declares them. Only the build and the
 * authority read this: a browser learns the title, description and entry page of a section from
 * its reader's view, and only of the sections that reader may open.
 */
export const SECTIONS = sectionLinks(config.sections)
