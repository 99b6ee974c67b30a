import type { NextPageContext } from 'next'
import { ErrorScreen } from '../components/PageErrorBoundary'

interface Props {
  statusCode: number
  name?: string
  message?: string
}

/**
 * Next renders this when a page cannot start, most often because its script chunk failed to
 * load (offline, or a deploy replaced it). The reader gets the error and Retry, not a blank page.
 */
function ErrorPage({ statusCode, name, message }: Props) {
  const error = Object.assign(new Error(message ?? `Error ${statusCode}`), name ? { name } : {})
  return <ErrorScreen error={error} onRetry={() => window.location.reload()} onTryAgain={() => window.location.reload()} />
}

ErrorPage.getInitialProps = ({ res, err }: NextPageContext): Props => ({
  statusCode: res?.statusCode ?? (err as { statusCode?: number } | null)?.statusCode ?? 500,
  ...(err ? { name: err.name, message: err.message } : {}),
})

export default ErrorPage
