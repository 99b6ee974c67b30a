// s3rver ships no types; the deploy's tests use this much of it (scripts/deploy/localS3.ts).
declare module 's3rver' {
  export default class S3rver {
    constructor(options: { address?: string; port?: number; silent?: boolean; directory: string })
    run(): Promise<{ address: string; port: number }>
    close(): Promise<void>
  }
}
