// The sign-in form's theme as its style props read it, worked out when the site is built.
//
// Amplify UI's components read the theme for two things: the breakpoints, and which strings are
// design tokens (a style prop `padding="small"` becomes `var(--amplify-space-small)`). Without a
// ThemeProvider, which this site does not use (the form is styled by Amplify UI's stylesheet),
// `useTheme` built the whole default theme with `createTheme()` for that: every token's value and
// the theme's CSS text, about 1,500 tokens, and again on each render of each component. So the
// sign-in page shipped the token definitions and the code that builds a theme (its size:
// docs/benchmarks.md, figures behind choices in the code) and ran it hundreds of times while drawing the form.
//
// Here `useTheme`'s default is the same theme's names, built once: its name, its breakpoints, and
// for each token of the categories style props use (colours, space, font sizes…: every category
// but `components`, which no style prop reads) the token's CSS variable. A token's `value` is its
// variable too, not the value the stylesheet gives it: nothing reads it but a ThemeProvider.
// Measured by the sign-in page's first-load JavaScript in `npm run bench size` (budget 200 kB).
// __tests__/patches/signIn.test.ts checks these against `createTheme()` of the installed version,
// and an Amplify UI upgrade that changes the patched lines fails the build.
const replaceExactly = require('../replaceExactly.cjs')

const FILE = '@aws-amplify/ui-react/dist/esm/hooks/useTheme.mjs'
/** Made the default theme when loaded, as the context's default: now left to useTheme's. */
const CONTEXT_FILE = '@aws-amplify/ui-react/dist/esm/components/ThemeProvider/ThemeContext.mjs'
/** Reads the default theme's breakpoints, which brought every token definition with them. */
const BREAKPOINTS_FILE = '@aws-amplify/ui-react/dist/esm/primitives/shared/responsive/utils.mjs'
/** No style prop resolves to these token categories (stylePropsToThemeKeys in Amplify UI). */
const UNREAD_CATEGORIES = ['components']

/** The default theme's token names as a tree whose leaves are 0, its breakpoints and its name. */
function defaultThemeShape() {
  // The CommonJS build of the same installed package, in the build's own process.
  const { createTheme } = require('@aws-amplify/ui')
  const theme = createTheme()
  const namesOf = (tokens) => {
    if (typeof tokens.name === 'string' && 'value' in tokens && typeof tokens.toString === 'function') return 0
    return Object.fromEntries(Object.entries(tokens).map(([key, child]) => [key, namesOf(child)]))
  }
  const tree = namesOf(theme.tokens)
  for (const category of UNREAD_CATEGORIES) delete tree[category]
  return { name: theme.name, breakpoints: theme.breakpoints, tree }
}

function styleThemeSource() {
  const { name, breakpoints, tree } = defaultThemeShape()
  return `import { cssNameTransform } from '@aws-amplify/ui';

// The default theme's names for style props, from the installed Amplify UI when the site was built
// (patches/signIn/styleTokens.cjs).
const DEFAULT_THEME_NAME = ${JSON.stringify(name)};
const DEFAULT_BREAKPOINTS = ${JSON.stringify(breakpoints)};
const DEFAULT_TOKEN_NAMES = ${JSON.stringify(tree)};
const designTokens = (names, path) => {
    const tokens = {};
    for (const key of Object.keys(names)) {
        const at = path.concat(key);
        if (names[key] === 0) {
            const name = \`--\${cssNameTransform({ path: at })}\`;
            tokens[key] = { name, path: at, value: \`var(\${name})\`, toString: () => \`var(\${name})\` };
        }
        else {
            tokens[key] = designTokens(names[key], at);
        }
    }
    return tokens;
};
let defaultStyleTheme;
const styleTheme = () => (defaultStyleTheme ??= {
    name: DEFAULT_THEME_NAME,
    breakpoints: DEFAULT_BREAKPOINTS,
    tokens: designTokens(DEFAULT_TOKEN_NAMES, []),
});
`
}

module.exports = function styleTokensLoader(source) {
  const file = [FILE, CONTEXT_FILE, BREAKPOINTS_FILE].find((name) => this.resourcePath.replace(/\\/g, '/').endsWith(name))
  if (!file) throw new Error(`styleTokensLoader: not a file it patches: ${this.resourcePath}`)
  const context = { loader: 'styleTokensLoader', file, dependency: 'Amplify UI' }
  if (file === CONTEXT_FILE) {
    // Without a ThemeProvider the context has no theme, and useTheme gives the default one.
    const result = replaceExactly(source, "import { createTheme } from '@aws-amplify/ui';\n", '', 1, context)
    return replaceExactly(result, 'theme: createTheme(),', 'theme: undefined,', 1, context)
  }
  const breakpointsOnly = file === BREAKPOINTS_FILE
  if (breakpointsOnly) {
    const { breakpoints } = defaultThemeShape()
    let result = replaceExactly(source, "import { defaultTheme } from '@aws-amplify/ui';\n", `// The default theme's breakpoints (patches/signIn/styleTokens.cjs).\nconst defaultTheme = { breakpoints: ${JSON.stringify(breakpoints)} };\n`, 1, context)
    if (/\bdefaultTheme\.(?!breakpoints\b)/.test(result)) throw new Error(`styleTokensLoader: ${BREAKPOINTS_FILE} reads more of the default theme than its breakpoints; Amplify UI changed`)
    return result
  }
  let result = replaceExactly(source, "import { createTheme } from '@aws-amplify/ui';\n", styleThemeSource(), 1, context)
  result = replaceExactly(result, 'return createTheme();', 'return styleTheme();', 1, context)
  return result
}
module.exports.FILE = FILE
module.exports.BREAKPOINTS_FILE = BREAKPOINTS_FILE
module.exports.CONTEXT_FILE = CONTEXT_FILE
module.exports.defaultThemeShape = defaultThemeShape
module.exports.styleThemeSource = styleThemeSource
