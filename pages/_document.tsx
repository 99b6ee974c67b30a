import { Head, Html, Main, NextScript } from 'next/document'
import { baseUrlCheckScript } from '../components/baseUrlCheck'

export default function Document() {
  return (
    <Html lang="en">
      <Head>
        <link rel="icon" href="/favicon.svg" type="image/svg+xml" />
      </Head>
      <body>
        <Main />
        <NextScript />
        <script dangerouslySetInnerHTML={{ __html: baseUrlCheckScript(process.env.__NEXT_ROUTER_BASEPATH ?? '') }} />
      </body>
    </Html>
  )
}
