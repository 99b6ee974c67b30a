import { useRouter } from 'next/router'
import { editUrlFor, reportUrlFor } from '../lib/siteLinks'

/** "Edit this page" (the page's source) and "Report a problem" (with the page's path filled in), each only when its setting is set. */
export function PageSourceLinks({ filePath }: { filePath?: string }) {
  const { asPath } = useRouter()
  const edit = filePath ? editUrlFor(filePath) : null
  const report = reportUrlFor(asPath.split(/[?#]/, 1)[0])
  if (!edit && !report) return null
  return (
    <p className="page-source-links">
      {edit && (
        <a href={edit} target="_blank" rel="noreferrer">
          Edit this page
        </a>
      )}
      {report && (
        <a href={report} target="_blank" rel="noreferrer">
          Report a problem
        </a>
      )}
    </p>
  )
}
