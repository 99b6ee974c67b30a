export declare function docsSettingsInEnvFiles(root: string): { file: string; name: string }[]
export declare function refuseDocsSettingsInEnvFiles(root: string, command: string): void
