export declare const NEXT_ENV_FILES: readonly string[]
export declare function docsSettingsInEnvFiles(root: string): { file: string; name: string }[]
export declare function refuseDocsSettingsInEnvFiles(root: string, command: string): void
