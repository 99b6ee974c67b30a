import { Head, Html, Main, NextScript, type DocumentProps } from 'next/document'
import { loadFailureScript, recordFailedScripts } from '../components/baseUrlCheck'
import { earlyScript } from '../components/earlyScripts'
import { pageDataFile } from '../lib/access/pageFiles'
import { SITE_ICON } from '../components/SiteLogo'
import { DOCS_PAGE, htmlProps } from '../lib/render/propsOnce'
import type { DocsPageProps } from '../lib/render/propsFiles'

const BASE_PATH = process.env.__NEXT_ROUTER_BASEPATH ?? ''

/**
 * A docs page's HTML holds its props once, as the page rendered from them: the props NextScript
 * writes into `__NEXT_DATA__` (this same object, which it reads after this render) name only the
 * route, and the browser fetches the page's data file, which has them, to hydrate
 * (lib/render/firstPageProps.ts). The preload starts that fetch while the scripts load. Returns
 * the data file's path, or null for any other page.
 */
function leavePropsToDataFile(nextData: DocumentProps['__NEXT_DATA__']): string | null {
  if (nextData.page !== DOCS_PAGE) return null
  const pageProps = (nextData.props as { pageProps: DocsPageProps }).pageProps
  // A new object: Next writes the data file from the props object itself, which keeps them all.
  nextData.props = { ...nextData.props, pageProps: htmlProps(pageProps) }
  return BASE_PATH + pageDataFile(nextData.buildId, pageProps.doc.route)
}

export default function Document({ __NEXT_DATA__: nextData }: DocumentProps) {
  const dataFile = leavePropsToDataFile(nextData)
  return (
    <Html lang="en">
      <Head>
        <link rel="icon" href={SITE_ICON} type="image/svg+xml" />
        {/* Fetched as lib/render/firstPageProps.ts fetches it (same mode and credentials), so that fetch takes this response. */}
        {dataFile && <link rel="preload" href={dataFile} as="fetch" crossOrigin="anonymous" />}
      </Head>
      <body>
        <script dangerouslySetInnerHTML={{ __html: recordFailedScripts + earlyScript() }} />
        <Main />
        <NextScript />
        <script dangerouslySetInnerHTML={{ __html: loadFailureScript(BASE_PATH) }} />
      </body>
    </Html>
  )
}
