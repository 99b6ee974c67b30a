/**
 * @jest-environment node
 *
 * Each patch to Amplify and Amplify UI (patches/signIn/) against the installed packages: an
 * upgrade that changes what a patch relies on fails the test that names the patch.
 */
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { PATCH_FILES } from '../../patches'
import { AMPLIFY_UI_FILES, PICK_BY_USER, SIDE_EFFECT_FREE_PACKAGES } from '../../patches/signIn'

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
    const lazyAuth = await import('../../patches/signIn/lazyAuth')
    const auth = await import('aws-amplify/auth')
    const wanted = new Set(authImports())
    expect(wanted.size).toBeGreaterThan(10)
    expect([...wanted].filter((name) => typeof (lazyAuth as Record<string, unknown>)[name] !== 'function')).toEqual([])
    expect([...wanted].filter((name) => typeof (auth as Record<string, unknown>)[name] !== 'function')).toEqual([])
  })

  test('a lazy function answers as the real one once the module has loaded (here: Amplify is not configured)', async () => {
    const lazyAuth = await import('../../patches/signIn/lazyAuth')
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
    expect(AMPLIFY_UI_FILES.test(path.join(process.cwd(), 'patches/signIn/lazyAuth.ts'))).toBe(false)
  })

  test("Amplify UI imports nothing else from aws-amplify than Amplify, which the core library's answers", async () => {
    const named = ['ui', 'ui-react', 'ui-react-core'].flatMap((pkg) =>
      fs.readdirSync(path.join(amplifyDir, pkg, 'dist/esm'), { recursive: true, encoding: 'utf8' })
        .filter((file) => file.endsWith('.mjs'))
        .flatMap((file) => [...fs.readFileSync(path.join(amplifyDir, pkg, 'dist/esm', file), 'utf8').matchAll(/import ([^;]*) from 'aws-amplify';/g)].map((match) => match[1]))
    )
    expect(named.length).toBeGreaterThan(0)
    expect(new Set(named)).toEqual(new Set(['{ Amplify }']))
    const { Amplify } = await import('../../patches/signIn/amplifyForUi')
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
    const { default: ours } = await import('../../patches/signIn/pickBy')
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
