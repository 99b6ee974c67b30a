import { useAuth } from '../lib/auth/AuthContext'

/**
 * What the reader sees while their session cannot be renewed because the sign-in service does not
 * answer: once Amplify's attempts are used up, a "Try again" button, and that it is retrying while
 * a "Try again" runs. Their session is kept meanwhile, so no password is asked for. Nothing otherwise.
 *
 * The sign-in page shows it in place of the form (`page`); every other page over its content
 * (`banner`), since the page the edge served is still the reader's to read.
 */
export function SignInServiceNotice({ variant }: { variant: 'page' | 'banner' }) {
  const { renewal, retryRenewal } = useAuth()
  if (renewal !== 'retrying' && renewal !== 'unreachable') return null
  const Heading = variant === 'page' ? 'h2' : 'p'
  return (
    <div role="alert" className={`sign-in-service-notice sign-in-service-notice-${variant}`}>
      <Heading className="sign-in-service-notice-title">The sign-in service cannot be reached.</Heading>
      {renewal === 'retrying' ? (
        <p>Retrying… Your session is kept, so you will not need your password.</p>
      ) : (
        <>
          <p>It may be down, or your network may block it. Your session is kept: once the service is back, try again.</p>
          <p>
            <button type="button" onClick={retryRenewal}>
              Try again
            </button>
          </p>
        </>
      )}
    </div>
  )
}
