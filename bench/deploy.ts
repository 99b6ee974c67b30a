/**
 * `npm run deploy` against a real S3 API on this machine (s3rver, scripts/deploy/localS3.ts): the
 * first deploy of a generated site into an empty bucket, a deploy with nothing to do (the same
 * build again), and the deploy after a one-page edit and rebuild. Time and peak memory of the deploy's process; requests, files and bytes counted on the
 * server's side. The site is built once in a temporary copy; each run gets a fresh bucket.
 */
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { copyProject } from '../scripts/audit/copyProject'
import { startLocalS3, type LocalS3Request } from '../scripts/deploy/localS3'
import { generatePages } from './generatePages'
import { measure } from './processTree'
import { medianWithRange, type Figure } from './table'

const ENV = { ...process.env, NEXT_TELEMETRY_DISABLED: '1', NEXT_IGNORE_INCORRECT_LOCKFILE: '1' }

export async function deployFigures(generated: number, runs: number): Promise<Figure[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `bench-deploy-${generated}-`))
  const s3 = await startLocalS3()
  try {
    copyProject(process.cwd(), dir)
    const edited = generated > 0 ? generatePages(dir, generated) : path.join(dir, 'content/docs/leads/environments.mdx')
    const build = async () => {
      const run = await measure('node', ['pipeline/steps/build.cjs'], dir, ENV)
      if (!run.ok) throw new Error(`the build failed in ${dir}`)
      return run.seconds
    }
    await build()
    const pages = fs.readdirSync(path.join(dir, 'out'), { recursive: true }).filter((file) => String(file).endsWith('.html')).length
    const figures = { first: [] as Array<Awaited<ReturnType<typeof deploy>>>, noop: [] as Array<Awaited<ReturnType<typeof deploy>>>, edit: [] as Array<Awaited<ReturnType<typeof deploy>>>, editToDeployed: [] as number[] }
    const deploy = async (bucket: string) => {
      const from = await s3.requestsSoFar()
      const run = await measure('node', ['--require', 'tsx/cjs', 'scripts/deploy/deploySite.ts', '--bucket', bucket, '--endpoint', s3.endpoint], dir, { ...ENV, ...s3.env })
      await s3.settled()
      if (!run.ok) throw new Error(`the deploy failed in ${dir}:\n${run.stdout}${s3.failures.length ? `\nthe local S3 failed on: ${s3.failures.slice(-5).join('; ')}` : ''}`)
      const requests: LocalS3Request[] = s3.requests.slice(from)
      const puts = requests.filter((request) => request.method === 'PUT')
      return { seconds: run.seconds, mb: run.peakTreeMb, load: os.loadavg()[0], requests: requests.length, files: puts.length, bytes: puts.reduce((sum, request) => sum + request.bytes, 0), puts }
    }
    for (let run = 0; run < runs; run++) {
      const bucket = `bench-${run}`
      await s3.createBucket(bucket)
      figures.first.push(await deploy(bucket))
      figures.noop.push(await deploy(bucket))
      fs.appendFileSync(edited, `\nEdited for deploy ${run}.\n`)
      const rebuild = await build()
      const edit = await deploy(bucket)
      figures.edit.push(edit)
      figures.editToDeployed.push(rebuild + edit.seconds)
      // What an edit writes, largest first: the figures say how much, this says which files.
      const written = [...edit.puts].sort((a, b) => b.bytes - a.bytes).map((request) => `${request.path.slice(bucket.length + 2)} ${(request.bytes / 1e3).toFixed(1)} kB`)
      process.stderr.write(`bench: ${pages} pages, one-page edit ${run + 1} wrote ${edit.files} files:\n  ${written.join('\n  ')}\n`)
    }
    const name = `${pages} pages`
    const row = (label: string, values: number[], digits: number, unit: string, method: string): Figure => ({ group: 'deploy', name: `${name}, ${label}`, ...medianWithRange(values, digits), unit, method })
    const method = 'npm run deploy to s3rver on 127.0.0.1'
    return [
      row('first deploy: wall time', figures.first.map((entry) => entry.seconds), 1, 's', `${method}, empty bucket, process start to exit`),
      row('first deploy: peak memory', figures.first.map((entry) => entry.mb), 0, 'MB', 'RSS of the deploy process, sampled every 250 ms'),
      row('first deploy: requests', figures.first.map((entry) => entry.requests), 0, 'requests', 'S3 requests the server answered'),
      row('first deploy: bytes written', figures.first.map((entry) => entry.bytes / 1e6), 1, 'MB', 'request bodies of the PUTs'),
      row('nothing to do: wall time', figures.noop.map((entry) => entry.seconds), 2, 's', `${method}, the same build again, process start to exit`),
      row('nothing to do: requests', figures.noop.map((entry) => entry.requests), 0, 'requests', 'S3 requests the server answered'),
      row('one-page edit: wall time', figures.edit.map((entry) => entry.seconds), 1, 's', `${method} after appending to one page and rebuilding`),
      row('one-page edit: files written', figures.edit.map((entry) => entry.files), 0, 'files', "PUTs the server answered, the deploy's record included"),
      row('one-page edit: bytes written', figures.edit.map((entry) => entry.bytes / 1e3), 1, 'kB', "request bodies of the PUTs, the deploy's record included"),
      row('one-page edit: rebuild + deploy', figures.editToDeployed, 1, 's', 'the incremental build after the edit, then the deploy: from the edit to a deployed site'),
      row('one-page edit: peak memory', figures.edit.map((entry) => entry.mb), 0, 'MB', 'RSS of the deploy process, sampled every 250 ms'),
      // The machine may be shared: times are only comparable at a similar load.
      row('load average during the deploys', [...figures.first, ...figures.noop, ...figures.edit].map((entry) => entry.load), 1, '', '1-minute load average as each deploy ended'),
    ]
  } finally {
    await s3.stop()
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
