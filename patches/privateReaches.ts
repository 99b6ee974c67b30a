/**
 * Every place this project relies on what a dependency does not publish: a file outside its
 * package's exports, a line of its built code, or the shape of what it produces. An upgrade may
 * move any of them without notice, so each is listed here with the test that fails when it does.
 * __tests__/patches/privateReaches.test.ts checks that each listed file is still installed, and
 * that no file of the project names a dependency's private path without being listed here.
 */
export interface PrivateReach {
  /** The package relied on, as installed under node_modules/. */
  dependency: string
  /** Its files relied on, relative to the package's folder; none when it is a shape. */
  files: readonly string[]
  /** What is relied on, in plain words. */
  reliesOn: string
  /** The project's files that rely on it. */
  by: readonly string[]
  /** The test that fails when an upgrade moves it. */
  test: string
}

export const PRIVATE_REACHES: readonly PrivateReach[] = [
  // The build.
  {
    dependency: 'unist-util-visit-parents',
    files: ['lib/index.js'],
    reliesOn: "the statement of its walker that names each visit function after its node, which the compiler's bundle removes as it bundles that file",
    by: ['patches/compile/visitWithoutNames.mjs', 'pipeline/compile/compilerBundle.mjs'],
    test: '__tests__/patches/compile.test.ts',
  },
  {
    dependency: 'nextra',
    files: [],
    reliesOn: "the shape of the page map Nextra's collector (dist/server/page-map.js) makes of content/, which the content source makes the same way (an untitled page titled by the site's own rule, lib/navigation/slugTitle.ts)",
    by: ['pipeline/content/contentSource.ts'],
    test: '__tests__/pipeline/contentSource.test.ts',
  },
  {
    dependency: 'nextra',
    files: [],
    reliesOn: "the options Nextra's loader (dist/server/loader.js) passes compileMdx, which the compile worker passes as well (all but its twoslash transformer, which the worker leaves out); the worker imports nothing of Nextra by path since it has no twoslash renderer",
    by: ['pipeline/compile/compileWorker.mjs'],
    test: '__tests__/patches/privateReaches.test.ts',
  },
  {
    dependency: 'nextra',
    files: [],
    reliesOn: "the shape of the program compileMdx makes (its JSX, `_components`, the table of contents' values), which the document maker reads",
    by: ['pipeline/compile/toPageDocument.mjs'],
    test: '__tests__/render/renderTree.equivalence.test.tsx',
  },
  {
    dependency: 'nextra',
    files: [],
    reliesOn: "Nextra's own yaml, which its compile parses front matter with, so the content source's one parse reads what the compile reads (not this project's dependency); the scan record is versioned by its version",
    by: ['pipeline/content/frontMatter.ts', 'pipeline/content/scanRecord.ts'],
    test: '__tests__/patches/privateReaches.test.ts',
  },
  {
    dependency: 'cognito-local',
    files: ['lib/keys/cognitoLocal.public.json'],
    reliesOn: 'the public key cognito-local signs with, which local mode trusts and production refuses',
    by: ['pipeline/steps/jwksFor.ts'],
    test: '__tests__/auth/authSettings.test.ts',
  },
  {
    dependency: 'next',
    files: ['dist/export/index.js', 'dist/export/worker.js', 'dist/build/index.js', 'dist/trace/index.js'],
    reliesOn: "the export `next build` runs to prerender a page with static props (exportApp, as the build calls it, with its own path map and the config the build recorded in required-server-files.json), which renders the docs pages with the server bundle of a build (its own `next build` renders none); that it asks next/dist/build's createStaticWorker for as many export processes as `experimental.cpus` says, which the renderer sets to its batches of routes, and sends each batch to next/dist/export/worker's exportPages with JSON messages, which the renderer runs in its own process for the first batch (only speed and memory depend on the last)",
    by: ['pipeline/render/renderWithNext.cjs', 'pipeline/render/exportInProcess.cjs'],
    test: '__tests__/integration/rebuild.test.ts',
  },
  // Next (patches/next/).
  {
    dependency: 'next',
    files: [],
    reliesOn: "the class name of the server compile's page tracer (TraceEntryPointsPlugin, in next/dist/build/webpack/plugins/next-trace-entrypoints-plugin.js)",
    by: ['patches/next/index.ts'],
    test: '__tests__/patches/next.test.ts',
  },
  {
    dependency: 'next',
    files: [],
    reliesOn: "that the dev server reads dynamic-css-manifest.json in the browser compile's output for every page it serves, retrying while it is missing (next/dist/server/load-components.js), and that Next writes it only in a production build (its ReactLoadablePlugin)",
    by: ['patches/next/index.ts'],
    test: '__tests__/patches/next.test.ts',
  },
  {
    dependency: 'next',
    files: [],
    reliesOn: "that `next dev` gives its compiles their source maps through a plugin of the class EvalSourceMapDevToolPlugin, with devtool false (next/dist/build/webpack/config/blocks/base.js), which the browser compile of `npm run dev` goes without",
    by: ['patches/next/index.ts'],
    test: '__tests__/patches/next.test.ts',
  },
  {
    dependency: 'next',
    files: [],
    reliesOn: "the framework and lib chunk groups Next sets for Rspack's browser compile",
    by: ['patches/next/clientChunks.ts'],
    test: '__tests__/patches/clientChunks.test.ts',
  },
  // Nextra and its theme (patches/theme/).
  {
    dependency: 'nextra',
    files: ['dist/client/normalize-pages.js'],
    reliesOn: 'the name comparison of its page-map sort',
    by: ['patches/theme/presortedPageMap.cjs', 'patches/theme/index.ts'],
    test: '__tests__/patches/theme.test.ts',
  },
  {
    dependency: 'nextra-theme-docs',
    files: ['dist/index.js', 'dist/style.css'],
    reliesOn: "the 768 px breakpoint's lines, the sidebar folder's rendering, the layout's order of table of contents and article, the menu button's props, and the names the theme imports from Headless UI",
    by: ['patches/theme/mobileBreakpoint.cjs', 'patches/theme/lazySidebarFolders.cjs', 'patches/theme/readerLayout.cjs', 'patches/theme/headlessUi.tsx', 'patches/theme/index.ts'],
    test: '__tests__/patches/theme.test.ts',
  },
  {
    dependency: 'nextra',
    files: ['dist/client/components/index.js', 'dist/client/components/button.js', 'dist/client/mdx.js'],
    reliesOn: "the components Nextra's index exports, the names its Button imports from Headless UI, and its MDX image component's lines",
    by: ['patches/theme/components.ts', 'patches/theme/headlessUi.tsx', 'patches/theme/plainImages.cjs', 'patches/theme/index.ts'],
    test: '__tests__/patches/theme.test.ts',
  },
  // Amplify and Amplify UI (patches/signIn/).
  {
    dependency: '@aws-amplify/ui-react',
    files: [
      'dist/esm/components/Authenticator/Router/Router.mjs',
      'dist/esm/components/Authenticator/shared/SignInSignUpTabs.mjs',
      'dist/esm/components/Authenticator/Authenticator.mjs',
      'dist/esm/components/Authenticator/hooks/useCustomComponents/defaultComponents.mjs',
      'dist/esm/hooks/useTheme.mjs',
      'dist/esm/components/ThemeProvider/ThemeContext.mjs',
      'dist/esm/primitives/shared/responsive/utils.mjs',
    ],
    reliesOn: "the lines of the Authenticator's screens and its theme that the patches rewrite, and the names Amplify UI's files import from aws-amplify",
    by: ['patches/signIn/lazyAuthenticatorScreens.cjs', 'patches/signIn/styleTokens.cjs', 'patches/signIn/lazyAuth.ts', 'patches/signIn/index.ts'],
    test: '__tests__/patches/signIn.test.ts',
  },
  {
    dependency: '@aws-amplify/ui',
    files: ['dist/esm/machines/authenticator/utils.mjs'],
    reliesOn: "the authenticator machine's one call of lodash's pickBy, and the names its files import from aws-amplify",
    by: ['patches/signIn/index.ts', 'patches/signIn/pickBy.ts', 'patches/signIn/lazyAuth.ts'],
    test: '__tests__/patches/signIn.test.ts',
  },
  {
    dependency: '@aws-amplify/ui-react-core',
    files: [],
    reliesOn: 'the names its files import from aws-amplify/auth',
    by: ['patches/signIn/index.ts', 'patches/signIn/lazyAuth.ts'],
    test: '__tests__/patches/signIn.test.ts',
  },
  {
    dependency: '@aws-crypto/sha256-js',
    files: [],
    reliesOn: 'that loading it changes nothing (it has no side effects), though it does not say so',
    by: ['patches/signIn/index.ts'],
    test: '__tests__/patches/signIn.test.ts',
  },
]
