import { useEffect, useState } from 'react'
import type { DevProblems as Problems } from '../lib/render/useDevServerEvents'

/**
 * `npm run dev` only: what the last content check found, over the open page, since the page keeps
 * its last version that passed (a new page is not found) and would otherwise look as if the edit
 * were lost. The page's own problems in full, each as the terminal's line for it; of others only how
 * many, as a page names no other. Gone once a check passes; the reader may hide it until the next.
 */
function DevProblemsNow({ problems }: { problems: Problems | null }) {
  const [hidden, setHidden] = useState<Problems | null>(null)
  // A new check's problems show again, even after the last ones were hidden.
  useEffect(() => setHidden(null), [problems])
  if (!problems || hidden === problems) return null
  const own = problems.messages.length > 0
  // The count is the event's, the messages asked for after it: another check may have come between.
  const others = Math.max(0, problems.count - problems.messages.length)
  return (
    <div role="alert" className="dev-problems">
      <p className="dev-problems-title">
        {own ? 'This page did not pass the content check' : `The content check found ${others === 1 ? 'a problem' : `${others} problems`} elsewhere`}
      </p>
      {own ? <pre>{problems.messages.join('\n')}</pre> : null}
      <p>
        {own && others > 0 ? `${others} more elsewhere. ` : ''}
        Until the check passes, each page shows its last version that passed (a new page is not found); the terminal running npm run dev names every problem.
      </p>
      <button type="button" onClick={() => setHidden(problems)}>
        Hide
      </button>
    </div>
  )
}

export const DevProblems: (props: { problems: Problems | null }) => JSX.Element | null = process.env.NODE_ENV === 'development' ? DevProblemsNow : () => null
