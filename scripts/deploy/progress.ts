/**
 * What a deploy prints while it runs: the plan (files and bytes to upload, objects to delete),
 * then at most one line per interval and one per finished phase (files and bytes done, rate),
 * then a summary.
 */
import type { DeployPlan } from './deployPlan'

export interface DeployProgress {
  /** Where out/'s files came from: the build's record, or (`fromBuild` null) hashing every one. */
  localFiles(fromBuild: string | null, files: number): void
  /** The bucket's seal names this build's record of out/: nothing to do, and nothing more read (./deploySeal.ts). */
  sealed(fromBuild: string): void
  /** out/'s changes since the build the bucket holds, from the build's delta (pipeline/steps/outDelta.ts): files changed or added, and removed. */
  fromDelta(fromBuild: string, changed: number, removed: number): void
  /** `--list`: the objects that hold other bytes than the record says (changed by hand), uploaded again. */
  altered(keys: readonly string[]): void
  planned(plan: DeployPlan): void
  uploaded(bytes: number): void
  phaseDone(name: string): void
  finished(summary: { deleted: number; recordWritten: boolean; invalidation: string | null }): void
}

const megabytes = (bytes: number) => `${(bytes / 1e6).toFixed(bytes < 1e7 ? 2 : 1)} MB`

export function printedProgress(write: (line: string) => void = (line) => process.stdout.write(line + '\n'), clock: () => number = Date.now, intervalMs = 2000): DeployProgress {
  const started = clock()
  let lastLine = started
  let totalFiles = 0
  let totalBytes = 0
  let files = 0
  let bytes = 0
  const status = (label: string) => {
    const seconds = (clock() - started) / 1000
    const rate = seconds > 0 ? ` at ${megabytes(bytes / seconds)}/s` : ''
    write(`deploy: ${label}: ${files}/${totalFiles} files, ${megabytes(bytes)}/${megabytes(totalBytes)}${rate}`)
    lastLine = clock()
  }
  return {
    localFiles(fromBuild, count) {
      write(
        fromBuild === null
          ? `deploy: no record of a finished build beside out/ (.cache/out-record.json): hashed all ${count} files of out/`
          : `deploy: ${count} files of out/ as build ${fromBuild} recorded them (out/ not read)`
      )
    },
    sealed(fromBuild) {
      write(`deploy: the bucket already holds build ${fromBuild} as its record of out/ names it (its seal says so); nothing read, nothing written (${((clock() - started) / 1000).toFixed(1)} s)`)
    },
    fromDelta(fromBuild, changed, removed) {
      write(`deploy: ${changed} files of out/ changed and ${removed} removed since the build the bucket holds, as build ${fromBuild}'s record of its changes names them (neither out/'s record nor the bucket's read)`)
    },
    altered(keys) {
      write(`deploy: ${keys.length} objects hold other bytes than the bucket's record says (changed outside a deploy)${keys.length > 0 ? `, uploaded again: ${keys.slice(0, 5).join(', ')}${keys.length > 5 ? ', …' : ''}` : ''}`)
    },
    planned(plan) {
      totalFiles = plan.phases.reduce((sum, phase) => sum + phase.files.length, 0)
      totalBytes = plan.phases.reduce((sum, phase) => phase.files.reduce((inner, file) => inner + file.bytes, sum), 0)
      const phases = plan.phases.map((phase) => `${phase.name} ${phase.files.length}`).join(', ')
      write(
        `deploy: ${totalFiles} files (${megabytes(totalBytes)}) to upload${phases ? ` (${phases})` : ''}, ${plan.unchanged} unchanged, ` +
          `${plan.deleteNow.length} to delete, ${plan.keptForGrace.length} removed files kept for open tabs`
      )
    },
    uploaded(size) {
      files++
      bytes += size
      if (clock() - lastLine >= intervalMs) status('uploading')
    },
    phaseDone(name) {
      status(`${name} done`)
    },
    finished({ deleted, recordWritten, invalidation }) {
      const seconds = ((clock() - started) / 1000).toFixed(1)
      if (files === 0 && deleted === 0 && !recordWritten) return write(`deploy: the bucket already holds this build; nothing written${invalidation ? `; ${invalidation} an earlier deploy left owed` : ''} (${seconds} s)`)
      write(`deploy: done in ${seconds} s: ${files} files (${megabytes(bytes)}) uploaded, ${deleted} deleted${invalidation ? `, ${invalidation}` : ''}`)
    },
  }
}
