/**
 * @jest-environment node
 *
 * Each patch in pipeline/patches against the installed Nextra: an upgrade that changes what a
 * patch relies on fails the test that names the patch.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { AMPLIFY_UI_FILES, applyPatches, HEADLESS_UI_USERS, PATCH_FILES, PICK_BY_USER, SIDE_EFFECT_FREE_PACKAGES, XSTATE_REACT_FILES, type BundlerConfig } from '../../pipeline/patches'

const nextraDir = path.dirname(require.resolve('nextra/package.json'))
const themeDir = path.join(process.cwd(), 'node_modules/nextra-theme-docs')
// eslint-disable-next-line @typescript-eslint/no-require-imports
const presorted = require(PATCH_FILES.presortedPageMap) as ((source: string) => string) & { FROM: string }
// eslint-disable-next-line @typescript-eslint/no-require-imports
const breakpoint = require(PATCH_FILES.mobileBreakpoint) as ((this: { resourcePath: string }, source: string) => string) & { MOBILE_MAX: number }

describe('presortedPageMap', () => {
  const normalizePages = fs.readFileSync(path.join(nextraDir, 'dist/client/normalize-pages.js'), 'utf8')

  test("turns the installed Nextra's name comparison into keeping the build-time order", () => {
    const patched = presorted(normalizePages)
    expect(patched).not.toContain('localeCompare')
    expect(patched).toContain('return 0; /* presorted at build time')
  })

  test('fails the build when Nextra no longer compares names the way it did', () => {
    expect(() => presorted(normalizePages.replace(presorted.FROM, 'return a.name < b.name ? -1 : 1;'))).toThrow(/expected 1 × .* found 0; Nextra changed/)
  })
})

describe('mobileBreakpoint', () => {
  const patch = (file: string, source = fs.readFileSync(path.join(themeDir, 'dist', file), 'utf8')) =>
    breakpoint.call({ resourcePath: path.join(themeDir, 'dist', file) }, source)

  test("moves the installed theme's 768 px breakpoint to 996 px in its script and its styles", () => {
    for (const file of ['index.js', 'style.css']) {
      const patched = patch(file)
      expect(patched).not.toMatch(/767px|768px|innerWidth [<>] 76[78]/)
      expect(patched).toContain(String(breakpoint.MOBILE_MAX))
    }
  })

  test('fails the build when the theme changes a breakpoint it patches', () => {
    const css = fs.readFileSync(path.join(themeDir, 'dist/style.css'), 'utf8').replace('(max-width:767px)', '(max-width:639px)')
    expect(() => patch('style.css', css)).toThrow(/mobileBreakpointLoader: expected 1 × "\(max-width:767px\)".*the theme changed/)
  })
})

describe('lazySidebarFolders', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const lazyFolders = require(PATCH_FILES.lazySidebarFolders) as (source: string) => string
  const theme = () => fs.readFileSync(path.join(themeDir, 'dist/index.js'), 'utf8')
  const folderBody = (source: string) => source.slice(source.indexOf('function FolderImpl('), source.indexOf('function Separator('))

  test("the installed theme's sidebar folder renders its pages only once it is or was open", () => {
    const folder = folderBody(lazyFolders(theme()))
    // The folder's open state is what Nextra computes, and the flag is set from it before rendering.
    expect(folder).toMatch(/const open = [^\n]+;\n[\s\S]*const wasOpen = useRef5\(false\);\n {2}if \(open\) wasOpen\.current = true;/)
    expect(folder).toContain('children: wasOpen.current && /* @__PURE__ */ jsx21(\n      Menu2,')
    // useRef5 is the sidebar module's own import of React's useRef.
    expect(theme()).toMatch(/\/\/ src\/components\/sidebar\.tsx[\s\S]*?import \{[^}]*useRef as useRef5[^}]*\} from "react";[\s\S]*function FolderImpl\(/)
  })

  test('fails the build when the theme changes the folder it patches', () => {
    const changed = theme().replace('children: /* @__PURE__ */ jsx21(\n      Menu2,', 'children: /* @__PURE__ */ jsx21(\n      Menu3,')
    expect(() => lazyFolders(changed)).toThrow(/lazySidebarFoldersLoader: expected 1 × [\s\S]* in nextra-theme-docs\/dist\/index\.js, found 0; the theme changed/)
  })
})

describe('components', () => {
  test("re-exports every Nextra component except the heavy ones no page uses", () => {
    const index = fs.readFileSync(path.join(nextraDir, 'dist/client/components/index.js'), 'utf8')
    const nextraExports = /export \{([^}]*)\}/.exec(index)![1].split(',').map((name) => name.trim()).filter(Boolean)
    const ours = [...fs.readFileSync(PATCH_FILES.components, 'utf8').matchAll(/^export \{ (\w+) \}/gm)].map((match) => match[1])
    const leftOut = ['MathJax', 'MathJaxContext', 'Mermaid', 'Playground', 'RemoteContent', 'evaluate']
    expect([...ours, ...leftOut].sort()).toEqual([...nextraExports].sort())
  })
})

describe('headlessUi', () => {
  /** The names a built file imports from @headlessui/react. */
  const headlessImports = (file: string) =>
    [...fs.readFileSync(file, 'utf8').matchAll(/import \{([^}]*)\} from "@headlessui\/react"/g)].flatMap((match) =>
      match[1].split(',').map((name) => name.trim().split(/\s+as\s+/)[0]).filter(Boolean)
    )

  test('provides every Headless UI component the installed theme and Nextra\'s Button import', () => {
    const users = [path.join(themeDir, 'dist/index.js'), path.join(nextraDir, 'dist/client/components/button.js')]
    const wanted = new Set(users.flatMap(headlessImports))
    expect(wanted.size).toBeGreaterThan(5)
    const provided = new Set([...fs.readFileSync(PATCH_FILES.headlessUi, 'utf8').matchAll(/^export (?:function|const) (\w+)/gm)].map((match) => match[1]))
    expect([...wanted].filter((name) => !provided.has(name))).toEqual([])
  })

  test('applies to the theme and Nextra\'s Button only: Tabs and Popup keep the real library', () => {
    expect(HEADLESS_UI_USERS.test(path.join(themeDir, 'dist/index.js'))).toBe(true)
    expect(HEADLESS_UI_USERS.test(path.join(nextraDir, 'dist/client/components/button.js'))).toBe(true)
    expect(HEADLESS_UI_USERS.test(path.join(nextraDir, 'dist/client/components/tabs/tabs.js'))).toBe(false)
    expect(HEADLESS_UI_USERS.test(path.join(nextraDir, 'dist/client/components/popup.js'))).toBe(false)
  })
})

describe('plainImages', () => {
  const mdx = fs.readFileSync(path.join(nextraDir, 'dist/client/mdx.js'), 'utf8')
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.plainImages) as (source: string) => string

  test("renders content images as plain <img> in the installed Nextra, without its zoom wrapper", () => {
    const patched = patch(mdx)
    expect(patched).not.toContain('image-zoom')
    expect(patched).toContain('img: "img"')
  })

  test('fails the build when Nextra changes its image component', () => {
    expect(() => patch(mdx.replace('img: ImageZoom', 'img: Image'))).toThrow(/plainImagesLoader: expected 1 × "img: ImageZoom".*Nextra changed/)
  })
})

describe('lazyQrCode', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.lazyQrCode) as ((source: string) => string) & { FILE: string }
  const setupTotp = fs.readFileSync(path.join(process.cwd(), 'node_modules', patch.FILE), 'utf8')

  test("the installed Amplify UI's TOTP screen imports qrcode when it draws the code, not with the form", () => {
    const patched = patch(setupTotp)
    expect(patched).not.toMatch(/^import QRCode/m)
    expect(patched).toContain("(await import('qrcode')).default.toDataURL(totpCode)")
    expect(patched).not.toMatch(/\bQRCode\b/)
  })

  test('fails the build when Amplify UI changes how it draws the code', () => {
    expect(() => patch(setupTotp.replace('await QRCode.toDataURL(totpCode)', 'await QRCode.toString(totpCode)'))).toThrow(/lazyQrCodeLoader: expected 1 ×.*Amplify UI changed/)
  })
})

describe('noServerTraces', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.noServerTraces) as { TRACER: string; CALLER_FILE: string }

  test("Next still traces its server through the compiled tracer's exports, at the moment it traces", () => {
    const caller = fs.readFileSync(path.join(process.cwd(), 'node_modules', patch.CALLER_FILE), 'utf8')
    expect(caller).toContain('const _nft = require("next/dist/compiled/@vercel/nft");')
    expect(caller).toContain(`await (0, _nft.${patch.TRACER})(`)
  })

  test('after the patch, the tracer Next calls finds no files, without reading any', () => {
    // A process of its own: the patch changes a module for the whole process.
    const script = `
      require(${JSON.stringify(PATCH_FILES.noServerTraces)}).skipServerTraces()
      const nft = require('next/dist/compiled/@vercel/nft')
      let reads = 0
      nft.${patch.TRACER}([require.resolve('next/dist/server/next-server.js')], { readFile: async () => (reads++, '') }).then((result) =>
        process.stdout.write(JSON.stringify({ files: result.fileList.size + result.esmFileList.size, reasons: result.reasons.size, reads })))`
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).toEqual({ files: 0, reasons: 0, reads: 0 })
  })
})

describe('lazyAuth', () => {
  const amplifyDir = path.join(process.cwd(), 'node_modules/@aws-amplify')
  /** Every name a file of Amplify UI imports from aws-amplify/auth. */
  const authImports = () =>
    ['ui', 'ui-react', 'ui-react-core'].flatMap((pkg) =>
      fs.readdirSync(path.join(amplifyDir, pkg, 'dist/esm'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs'))
        .flatMap((file) => {
          const source = fs.readFileSync(path.join(amplifyDir, pkg, 'dist/esm', file), 'utf8')
          return [...source.matchAll(/import \{([^}]*)\} from 'aws-amplify\/auth';/g)].flatMap((match) => match[1].split(',').map((name) => name.trim().split(/\s+as\s+/)[0]).filter(Boolean))
        })
    )

  test('gives Amplify UI every name it imports from aws-amplify/auth, each a function of the real module', async () => {
    const lazyAuth = await import('../../lib/auth/lazyAuth')
    const auth = await import('aws-amplify/auth')
    const wanted = new Set(authImports())
    expect(wanted.size).toBeGreaterThan(10)
    expect([...wanted].filter((name) => typeof (lazyAuth as Record<string, unknown>)[name] !== 'function')).toEqual([])
    expect([...wanted].filter((name) => typeof (auth as Record<string, unknown>)[name] !== 'function')).toEqual([])
  })

  test('a lazy function answers as the real one once the module has loaded (here: Amplify is not configured)', async () => {
    const lazyAuth = await import('../../lib/auth/lazyAuth')
    const auth = await import('aws-amplify/auth')
    const failure = (promise: Promise<unknown>) => promise.then(() => 'resolved', (error: Error) => `${error.name}: ${error.message}`)
    const expected = await failure(auth.resetPassword({ username: 'reader' }))
    expect(expected).not.toBe('resolved')
    expect(await failure(lazyAuth.resetPassword({ username: 'reader' }))).toBe(expected)
  })

  test("applies to Amplify UI's own files only", () => {
    expect(AMPLIFY_UI_FILES.test(path.join(amplifyDir, 'ui/dist/esm/machines/authenticator/defaultServices.mjs'))).toBe(true)
    expect(AMPLIFY_UI_FILES.test(path.join(amplifyDir, 'ui-react/dist/esm/hooks/useAuth.mjs'))).toBe(true)
    expect(AMPLIFY_UI_FILES.test(path.join(amplifyDir, 'ui-react-core/dist/esm/Authenticator/context/AuthenticatorProvider.mjs'))).toBe(true)
    expect(AMPLIFY_UI_FILES.test(path.join(process.cwd(), 'node_modules/aws-amplify/dist/esm/auth/index.mjs'))).toBe(false)
    expect(AMPLIFY_UI_FILES.test(path.join(process.cwd(), 'lib/auth/lazyAuth.ts'))).toBe(false)
  })

  test("Amplify UI imports nothing else from aws-amplify than Amplify, which the core library's answers", async () => {
    const named = ['ui', 'ui-react', 'ui-react-core'].flatMap((pkg) =>
      fs.readdirSync(path.join(amplifyDir, pkg, 'dist/esm'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs'))
        .flatMap((file) => [...fs.readFileSync(path.join(amplifyDir, pkg, 'dist/esm', file), 'utf8').matchAll(/import ([^;]*) from 'aws-amplify';/g)].map((match) => match[1]))
    )
    expect(named.length).toBeGreaterThan(0)
    expect(new Set(named)).toEqual(new Set(['{ Amplify }']))
    const { Amplify } = await import('../../lib/auth/amplifyForUi')
    expect(typeof Amplify.getConfig).toBe('function')
  })
})

describe('lazyAuthenticatorScreens', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.lazyAuthenticatorScreens) as { DIR: string; FILES: string[]; SCREENS: Record<string, string>; patch: (file: string, source: string) => string }
  const dir = path.join(process.cwd(), 'node_modules', patch.DIR)
  const read = (file: string) => fs.readFileSync(path.join(dir, file), 'utf8')

  test("the installed Authenticator's router loads every screen but sign-in on demand, inside a Suspense boundary", () => {
    const router = patch.patch('Router/Router.mjs', read('Router/Router.mjs'))
    for (const screen of Object.keys(patch.SCREENS).filter((screen) => screen !== 'SignUp')) {
      expect(router).toContain(`const ${screen} = lazyScreen(() => import('../${patch.SCREENS[screen]}.mjs'), '${screen}');`)
    }
    expect(router).toContain('React__default.createElement(React__default.Suspense, { fallback: null }, React__default.createElement(RouterScreens, props))')
    expect(router).toContain("import { SignInSignUpTabs } from '../shared/SignInSignUpTabs.mjs';")
    expect(patch.patch('shared/SignInSignUpTabs.mjs', read('shared/SignInSignUpTabs.mjs'))).toContain("const SignUp = lazyScreen(() => import('../SignUp/SignUp.mjs'), 'SignUp');")
  })

  test('the Authenticator and its default components no longer import the screens; each screen takes its own header and footer', () => {
    const authenticator = patch.patch('Authenticator.mjs', read('Authenticator.mjs'))
    expect(authenticator).toMatch(/Authenticator\.Provider = AuthenticatorProvider;\nAuthenticator\.SignIn = SignIn;\n\nexport/)
    const defaults = patch.patch('hooks/useCustomComponents/defaultComponents.mjs', read('hooks/useCustomComponents/defaultComponents.mjs'))
    expect(defaults).toContain('Header: SignIn.Header')
    for (const screen of Object.keys(patch.SCREENS).filter((screen) => !['SignInSelectAuthFactor', 'PasskeyPrompt'].includes(screen))) {
      expect(defaults).not.toContain(`${screen}.`)
      // The screen's own default, which it now takes.
      expect(read(`${patch.SCREENS[screen]}.mjs`)).toMatch(new RegExp(`${screen}: \\{[^}]*Header = ${screen}\\.Header`))
    }
  })

  test('no other file of Amplify UI imports a screen the router loads on demand', () => {
    const esm = path.join(process.cwd(), 'node_modules/@aws-amplify/ui-react/dist/esm')
    const screens = new Set(Object.values(patch.SCREENS).map((file) => `components/Authenticator/${file}.mjs`))
    const patched = new Set(patch.FILES.map((file) => `components/Authenticator/${file}`))
    const importers = fs.readdirSync(esm, { recursive: true, encoding: 'utf8' })
      .filter((file) => file.endsWith('.mjs') && !screens.has(file) && !patched.has(file))
      .filter((file) => [...fs.readFileSync(path.join(esm, file), 'utf8').matchAll(/^import [^;]*?'(\.[^']+)';$/gm)].some((match) => screens.has(path.posix.join(path.posix.dirname(file), match[1]))))
    expect(importers).toEqual([])
  })

  test('fails the build when Amplify UI changes what it imports', () => {
    const router = read('Router/Router.mjs')
    expect(() => patch.patch('Router/Router.mjs', router.replace("import { ForgotPassword } from '../ForgotPassword/ForgotPassword.mjs';", "import { ForgotPassword } from '../ForgotPassword/index.mjs';"))).toThrow(/lazyAuthenticatorScreensLoader: expected 1 ×[\s\S]*Amplify UI changed/)
    const defaults = read('hooks/useCustomComponents/defaultComponents.mjs')
    expect(() => patch.patch('hooks/useCustomComponents/defaultComponents.mjs', `${defaults}\nimport { Other } from '../../ForgotPassword/ForgotPassword.mjs';\n`)).toThrow(/still imports ForgotPassword/)
  })
})

describe('styleTokens', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const patch = require(PATCH_FILES.styleTokens) as ((this: { resourcePath: string }, source: string) => string) & { FILE: string; CONTEXT_FILE: string; BREAKPOINTS_FILE: string; styleThemeSource: () => string }
  const read = (file: string) => fs.readFileSync(path.join(process.cwd(), 'node_modules', file), 'utf8')
  const apply = (file: string, source = read(file)) => patch.call({ resourcePath: path.join(process.cwd(), 'node_modules', file) }, source)
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const { createTheme } = require('@aws-amplify/ui') as { createTheme: () => any }

  /** The theme the patched useTheme gives, evaluated as the browser would. */
  const styleTheme = () => {
    const source = patch.styleThemeSource().replace("import { cssNameTransform } from '@aws-amplify/ui';", "const { cssNameTransform } = require('@aws-amplify/ui');")
    return new Function('require', `${source}\nreturn styleTheme();`)(require)
  }
  /** Each token of a theme by its path, with the variable it stands for. */
  const variables = (tokens: any, at: string[] = []): Array<[string, string, string]> =>
    typeof tokens.toString === 'function' && typeof tokens.name === 'string' && 'value' in tokens
      ? [[at.join('.'), tokens.name, tokens.toString()]]
      : Object.entries(tokens).flatMap(([key, child]) => variables(child, [...at, key]))

  test("gives style props the installed default theme's name, breakpoints and every token's variable, but the components' own", () => {
    const real = createTheme()
    const ours = styleTheme()
    expect(ours.name).toBe(real.name)
    expect(ours.breakpoints).toEqual(real.breakpoints)
    const { components, ...styleCategories } = real.tokens
    expect(Object.keys(components).length).toBeGreaterThan(10)
    expect(variables(ours.tokens)).toEqual(variables(styleCategories))
    expect(styleTheme()).not.toBe(ours)
  })

  test('every category a style prop reads is there', () => {
    const constants = read('@aws-amplify/ui-react/dist/esm/primitives/shared/constants.mjs')
    const categories = new Set([...constants.slice(constants.indexOf('const stylePropsToThemeKeys')).matchAll(/^\s+\w+: '(\w+)',$/gm)].map((match) => match[1]))
    expect(categories.size).toBeGreaterThan(8)
    expect([...categories].filter((category) => !(category in styleTheme().tokens))).toEqual([])
  })

  test('useTheme, the theme context and the breakpoint helpers no longer build a theme', () => {
    const useTheme = apply(patch.FILE)
    expect(useTheme).not.toMatch(/createTheme/)
    expect(useTheme).toContain('return styleTheme();')
    expect(useTheme).toContain('let defaultStyleTheme;')
    const context = apply(patch.CONTEXT_FILE)
    expect(context).not.toMatch(/createTheme/)
    expect(context).toContain('theme: undefined,')
    const breakpoints = apply(patch.BREAKPOINTS_FILE)
    expect(breakpoints).not.toContain("from '@aws-amplify/ui'")
    expect(breakpoints).toContain(`const defaultTheme = { breakpoints: ${JSON.stringify(createTheme().breakpoints)} };`)
  })

  test('fails the build when Amplify UI changes how these files get the theme', () => {
    expect(() => apply(patch.FILE, read(patch.FILE).replace('return createTheme();', 'return createTheme({});'))).toThrow(/styleTokensLoader: expected 1 ×[\s\S]*Amplify UI changed/)
    expect(() => apply(patch.CONTEXT_FILE, read(patch.CONTEXT_FILE).replace('theme: createTheme(),', 'theme: createTheme({}),'))).toThrow(/styleTokensLoader: expected 1 ×[\s\S]*Amplify UI changed/)
    expect(() => apply(patch.BREAKPOINTS_FILE, `${read(patch.BREAKPOINTS_FILE)}\nconst more = defaultTheme.tokens;\n`)).toThrow(/reads more of the default theme than its breakpoints/)
  })
})

describe('sideEffectFreeSha256', () => {
  test('the SHA-256 library changes nothing when loaded, and its files are the ones marked', () => {
    // tslib's CommonJS build puts its helpers on the global object (its ES module, which the
    // browser's bundle uses, does not), so it loads first.
    const script = `
      require('tslib')
      const before = Object.getOwnPropertyNames(globalThis).join()
      require('@aws-crypto/sha256-js')
      process.stdout.write(JSON.stringify(Object.getOwnPropertyNames(globalThis).join() === before))`
    expect(JSON.parse(execFileSync(process.execPath, ['-e', script], { encoding: 'utf8' }))).toBe(true)
    const main = require.resolve('@aws-crypto/sha256-js')
    expect(SIDE_EFFECT_FREE_PACKAGES.test(main)).toBe(true)
    expect(SIDE_EFFECT_FREE_PACKAGES.test(path.join(path.dirname(main), '../module/index.js'))).toBe(true)
  })

  test("Amplify still imports it for nothing but its side effects (else the patch is moot)", () => {
    const middleware = fs.readFileSync(path.join(process.cwd(), 'node_modules/@aws-amplify/core/dist/esm/clients/middleware/retry/amzSdkInvocationIdHeaderMiddleware.mjs'), 'utf8')
    expect(middleware).toContain("import '@aws-crypto/sha256-js';")
  })
})

describe('noSyncExternalStoreShim', () => {
  test("XState's React bindings import the shim the alias replaces, and the installed React has the hook", () => {
    const useSelector = fs.readFileSync(path.join(process.cwd(), 'node_modules/@xstate/react/es/useSelector.js'), 'utf8')
    expect(useSelector).toContain("from 'use-sync-external-store/shim/with-selector';")
    expect(XSTATE_REACT_FILES.test(path.join(process.cwd(), 'node_modules/@xstate/react/es/useSelector.js'))).toBe(true)
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(typeof require('react').useSyncExternalStore).toBe('function')
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    expect(typeof require('use-sync-external-store/with-selector').useSyncExternalStoreWithSelector).toBe('function')
  })
})

describe('smallPickBy', () => {
  const utils = path.join(process.cwd(), 'node_modules/@aws-amplify/ui/dist/esm/machines/authenticator/utils.mjs')

  test("the authenticator machine's one call: a form's values and a predicate of (value, key)", () => {
    const source = fs.readFileSync(utils, 'utf8')
    expect(source).toContain("import pickBy from 'lodash/pickBy.js';")
    expect([...source.matchAll(/\bpickBy\(/g)]).toHaveLength(1)
    expect(source).toContain('pickBy(formValues, selectUserAttributes)')
    expect(source).toMatch(/const selectUserAttributes = \(_, key\) =>/)
    expect(PICK_BY_USER.test(utils)).toBe(true)
  })

  test("answers such a call as lodash's pickBy does", async () => {
    const { default: ours } = await import('../../pipeline/patches/pickBy')
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const lodash = require('lodash/pickBy.js') as typeof ours
    const byKey = (_: unknown, key: string) => key === 'email' || key.startsWith('custom:')
    const byValue = (value: unknown) => value !== ''
    const inherited = Object.assign(Object.create({ email: 'inherited@example.com' }), { username: 'reader', 'custom:team': 'docs' })
    for (const values of [{ username: 'reader', email: 'a@example.com', 'custom:team': 'docs', phone_number: '', country_code: '+44' }, {}, inherited, null, undefined]) {
      for (const predicate of [byKey, byValue]) expect(ours(values as object, predicate)).toEqual(lodash(values as object, predicate))
    }
  })
})

describe('applyPatches', () => {
  // No MDX page is bundled any more (pages/[[...slug]].tsx renders compiled documents), so no patch
  // touches Nextra's MDX loader; the theme's, Nextra's components' and Amplify's patches remain.
  const config = (): BundlerConfig => ({ module: { rules: ['...'] }, resolve: { alias: {} } })

  test.each(['rspack', 'webpack'] as const)('under %s, every module patch is in place', (bundler) => {
    // The server compile: the browser's chunk split (clientChunks.test.ts) needs Next's own groups.
    const patched = applyPatches(config(), { bundler, isServer: true, dev: false, context: '/site' })
    expect(patched.resolve.alias!['nextra/components$']).toBe(PATCH_FILES.components)
    const loaders = patched.module.rules.flatMap((rule) => (rule && typeof rule === 'object' && Array.isArray(rule.use) ? rule.use.map((use) => use.loader) : []))
    for (const file of [PATCH_FILES.presortedPageMap, PATCH_FILES.mobileBreakpoint, PATCH_FILES.lazySidebarFolders, PATCH_FILES.plainImages, PATCH_FILES.lazyQrCode, PATCH_FILES.styleTokens]) expect(loaders).toContain(file)
    expect(loaders.some((loader) => /nextra\/loader|pagePath|sectionPageMap/.test(loader))).toBe(false)
  })
})
