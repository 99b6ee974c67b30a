declare module 'edge-baked-config' {
  const config: unknown
  export default config
}
