export interface FileConfig {
    apiKey?: string;
    baseUrl?: string;
    retries?: number;
    timeoutSeconds?: number;
}
export interface ResolvedConfig {
    apiKey: string | undefined;
    /** where the key came from, for --verbose (never the key itself) */
    apiKeySource: string | undefined;
    baseUrl: string;
    retries: number | undefined;
    timeoutSeconds: number | undefined;
    configPath: string | undefined;
    warnings: string[];
}
export declare class UsageError extends Error {
    name: string;
}
export declare function defaultConfigPath(env: Record<string, string | undefined>): string;
export declare function resolveConfig(flags: {
    config?: string;
    baseUrl?: string;
}, env: Record<string, string | undefined>): ResolvedConfig;
