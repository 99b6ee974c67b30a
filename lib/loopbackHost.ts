/**
 * Whether a host name, as a URL parser reads it (`new URL(…).hostname`: `127.1` and `0x7f000001`
 * are 127.0.0.1 there), names this machine: 127.0.0.0/8, [::1], 0.0.0.0, localhost and the names
 * under it (browsers resolve *.localhost to this machine without asking DNS), with or without a
 * final dot.
 */
export function isLoopbackHost(hostname: string): boolean {
  const name = hostname.toLowerCase().replace(/\.$/, '')
  return /^127\.\d+\.\d+\.\d+$/.test(name) || name === '[::1]' || name === '0.0.0.0' || name === 'localhost' || name.endsWith('.localhost')
}
