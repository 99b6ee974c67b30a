import { markdownFiles } from '../../../pipeline/steps/buildMarkdown'

/** Every file the Markdown step would write, whole, by its path under out/ (the step itself writes each as it is made). */
export function markdownFileMap(...args: Parameters<typeof markdownFiles>): Map<string, string> {
  return new Map([...markdownFiles(...args)].map(({ key, pieces }) => [key, [...pieces].join('')]))
}
