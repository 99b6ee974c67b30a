import { useRouter } from 'next/router'

/**
 * The path of the page the reader is on. Next's `pathname` is the page file's route, which for
 * the one docs route is `/[[...slug]]` on every docs page; there the real path is `asPath`
 * without its query and hash. Other pages keep `pathname` (the not-found page's is `/404`).
 */
export function pagePathOf(router: { pathname: string; asPath: string }): string {
  if (!router.pathname.includes('[')) return router.pathname
  return router.asPath.split(/[?#]/, 1)[0].replace(/(.)\/$/, '$1')
}

export const usePagePath = (): string => pagePathOf(useRouter())
