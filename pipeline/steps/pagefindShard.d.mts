import type { SearchDocument } from '../../lib/search/searchDocuments'

export function writeShardFiles(made: { index?: { addHTMLFile(file: { url: string; content: string }): Promise<{ errors: string[] }>; writeFiles(options: { outputPath: string }): Promise<{ errors: string[] }>; deleteIndex(): Promise<unknown> }; errors: string[] }, documents: readonly SearchDocument[], dir: string): Promise<void>
