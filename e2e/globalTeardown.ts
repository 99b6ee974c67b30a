export default async function globalTeardown() {
  await globalThis.__E2E_BUCKET_SITE__?.stop()
  await globalThis.__E2E_BUCKET__?.stop()
  await globalThis.__E2E_STACK__?.stop()
}
