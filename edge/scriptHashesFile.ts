/**
 * Reads and writes a script-hashes file: the build's `.next/script-hashes.json` (read by the edge
 * build and the local server) and its copy beside the edge bundle, `edge/dist/script-hashes.json`
 * (read by the CDK stack at synth time). Node only: the Lambda bundle has the hashes baked in and
 * never imports this.
 */
import fs from 'node:fs'
import { parseScriptHashes, type ScriptHashesFile } from './securityHeaders'

export function readScriptHashesFile(file: string): string[] {
  return parseScriptHashes(JSON.parse(fs.readFileSync(file, 'utf8')), file)
}

export function writeScriptHashesFile(file: string, scriptHashes: readonly string[]): void {
  fs.writeFileSync(file, JSON.stringify({ scriptHashes: [...scriptHashes] } satisfies ScriptHashesFile, null, 1) + '\n')
}
