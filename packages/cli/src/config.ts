// Where the CLI finds its server and key: flags, then the environment (GLEANER_API_KEY,
// GLEANER_BASE_URL), then a JSON config file (--config, else ~/.config/gleaner/config.json).
import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { DEFAULT_BASE_URL } from '@gleaner/client';

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

export class UsageError extends Error {
  override name = 'UsageError';
}

export function defaultConfigPath(env: Record<string, string | undefined>): string {
  const base = env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config');
  return join(base, 'gleaner', 'config.json');
}

function readConfig(path: string, explicit: boolean, warnings: string[]): FileConfig | undefined {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (e) {
    if (!explicit && (e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new UsageError(`cannot read config file ${path}: ${(e as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // the message of JSON.parse can quote the file's text, which may hold the key
    throw new UsageError(`config file ${path} is not valid JSON`);
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed))
    throw new UsageError(`config file ${path} must hold a JSON object`);
  const c = parsed as Record<string, unknown>;
  const out: FileConfig = {};
  for (const [k, v] of Object.entries(c)) {
    if (k === 'apiKey' || k === 'baseUrl') {
      if (typeof v !== 'string') throw new UsageError(`config file ${path}: ${k} must be a string`);
      out[k] = v;
    } else if (k === 'retries' || k === 'timeoutSeconds') {
      if (typeof v !== 'number' || !(v >= 0))
        throw new UsageError(`config file ${path}: ${k} must be a number`);
      out[k] = v;
    } else warnings.push(`config file ${path}: unknown setting ${k} ignored`);
  }
  if (out.apiKey && process.platform !== 'win32') {
    try {
      if ((statSync(path).mode & 0o077) !== 0)
        warnings.push(`config file ${path} holds an API key and is readable by others: chmod 600 it`);
    } catch {}
  }
  return out;
}

export function resolveConfig(
  flags: { config?: string; baseUrl?: string },
  env: Record<string, string | undefined>,
): ResolvedConfig {
  const warnings: string[] = [];
  const configPath = flags.config ?? defaultConfigPath(env);
  const file = readConfig(configPath, flags.config !== undefined, warnings);
  const envKey = env.GLEANER_API_KEY?.trim();
  const fileKey = file?.apiKey?.trim();
  const apiKey = envKey || fileKey || undefined;
  const apiKeySource = envKey ? 'GLEANER_API_KEY' : fileKey ? configPath : undefined;
  const baseUrl = flags.baseUrl ?? (env.GLEANER_BASE_URL?.trim() || file?.baseUrl || DEFAULT_BASE_URL);
  if (!/^https?:\/\/[^\s]+$/.test(baseUrl))
    throw new UsageError(
      `the server URL must start with http:// or https:// (got ${JSON.stringify(baseUrl)})`,
    );
  return {
    apiKey,
    apiKeySource,
    baseUrl,
    retries: file?.retries,
    timeoutSeconds: file?.timeoutSeconds,
    configPath: file ? configPath : undefined,
    warnings,
  };
}
