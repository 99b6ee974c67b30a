/**
 * `npm start` and `npm run dev` sign in with the local Cognito only: asked for production, they
 * say so and end, rather than ignore the setting. Plain Node, for scripts/start.mjs too.
 */
export function refuseProductionMode(command) {
  if (process.env.DOCS_AUTH_MODE !== 'production') return
  console.error(`${command} serves the site with the local Cognito; unset DOCS_AUTH_MODE (a production build is for AWS, see docs/deploy.md).`)
  process.exit(1)
}
