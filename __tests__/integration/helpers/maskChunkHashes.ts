/**
 * A file's name or text with the bundler's chunk hashes (`-<16 hex>.js`, `.<16 hex>.js`) masked:
 * Rspack may name a few chunks differently between two builds of the same sources under load
 * (docs/architecture.md), so the byte-identity tests compare with them set aside when that happened.
 */
export const maskChunkHashes = (text: string) => text.replace(/([-.])[0-9a-f]{16}\.js/g, '$1<hash>.js')
