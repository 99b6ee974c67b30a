import { Component, type ReactNode } from 'react'

/** A failed chunk download is a network problem, not a bug: reloading fetches it again. */
export function isChunkLoadError(error: unknown): boolean {
  if (!(error instanceof Error)) return false
  return error.name === 'ChunkLoadError' || /loading (css )?chunk [\w/.-]+ failed/i.test(error.message)
}

/** The error and each of its causes, outermost first. */
export function causeChain(error: unknown): string[] {
  const messages: string[] = []
  let current: unknown = error
  for (let depth = 0; current !== undefined && current !== null && depth < 10; depth++) {
    messages.push(current instanceof Error ? `${current.name}: ${current.message}` : String(current))
    current = current instanceof Error ? (current as Error & { cause?: unknown }).cause : undefined
  }
  return messages
}

/** What a reader sees for an error: a failed chunk offers Retry (reload); a crash shows its cause chain and Try again. */
export function ErrorScreen({ error, onRetry, onTryAgain }: { error: unknown; onRetry: () => void; onTryAgain: () => void }) {
  if (isChunkLoadError(error)) {
    return (
      <div role="alert" className="page-error">
        <h1>This page could not be loaded.</h1>
        <p>{error instanceof Error ? error.message : String(error)}</p>
        <button type="button" onClick={onRetry}>
          Retry
        </button>
      </div>
    )
  }
  return (
    <div role="alert" className="page-error">
      <h1>This page crashed.</h1>
      <ol>
        {causeChain(error).map((message, index) => (
          <li key={index}>{message}</li>
        ))}
      </ol>
      <button type="button" onClick={onTryAgain}>
        Try again
      </button>
    </div>
  )
}

interface State {
  error: unknown
}

/** A crashed page or a failed chunk load shows what happened and a way out, never a blank page. */
export class PageErrorBoundary extends Component<{ children: ReactNode; reload?: () => void }, State> {
  state: State = { error: null }

  static getDerivedStateFromError(error: unknown): State {
    return { error }
  }

  render() {
    const { error } = this.state
    if (error === null) return this.props.children
    return (
      <ErrorScreen
        error={error}
        onRetry={this.props.reload ?? (() => window.location.reload())}
        onTryAgain={() => this.setState({ error: null })}
      />
    )
  }
}
