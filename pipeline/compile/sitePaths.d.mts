import type { TreeNode } from '../../lib/render/pageDocument'

export function withoutDotSegments(pathname: string): string
export function climbsOut(written: string): boolean
export function sitePathOf(route: string, written: string): string
export function absoluteUrl(route: string, url: string): string
export function withSitePaths(tree: TreeNode[], route: string, urlAttributes: ReadonlySet<string>): TreeNode[]
export function isUrlProperty(tagName: string, name: string, urlAttributes: ReadonlySet<string>): boolean
export function withSiteHrefs(data: Record<string, unknown>, folderRoute: string): Record<string, unknown>
