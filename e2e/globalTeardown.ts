export default async function globalTeardown() {
  await globalThis.__E2E_STACK__?.stop()
}
