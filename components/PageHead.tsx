import { useConfig } from 'nextra-theme-docs'

import { SITE_NAME } from '../lib/siteName'

export { SITE_NAME }

/**
 * The theme's `head` slot. Nextra 3's docs theme sets no <title>; this gives every docs page
 * "<page title> – Platform Docs" and its front-matter description.
 * The theme calls this as a plain function inside its own Head component, so the hook is legal.
 */
export function PageHead() {
  const { title, frontMatter } = useConfig()
  const description = typeof frontMatter.description === 'string' ? frontMatter.description : undefined
  return (
    <>
      <title>{title ? `${title} – ${SITE_NAME}` : SITE_NAME}</title>
      {description && <meta name="description" content={description} />}
      <meta name="viewport" content="width=device-width, initial-scale=1.0" />
      <meta name="robots" content="noindex, nofollow" />
    </>
  )
}
