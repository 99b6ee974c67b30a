import { Head, Html, Main, NextScript } from 'next/document'
import { loadFailureScript, recordFailedScripts } from '../components/baseUrlCheck'
import { earlyScript } from '../components/earlyScripts'

export default function Document() {
  return (
    <Html lang="en">
      <Head>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </Head>
      <body>
        <script dangerouslySetInnerHTML={{ __html: recordFailedScripts + earlyScript() }} />
        <Main />
        <NextScript />
        <script dangerouslySetInnerHTML={{ __html: loadFailureScript(process.env.__NEXT_ROUTER_BASEPATH ?? '') }} />
      </body>
    </Html>
  )
}
