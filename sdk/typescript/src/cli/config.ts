import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { UsageError } from './output.ts';

export interface Credentials {
  baseUrl: string;
  apiKey: string;
}

/** Where `vidbot login` keeps the address and key: VIDBOT_CONFIG, else $XDG_CONFIG_HOME/vidbot, else ~/.config/vidbot. */
function configFile(env: NodeJS.ProcessEnv = process.env): string {
  if (env.VIDBOT_CONFIG) return env.VIDBOT_CONFIG;
  return join(env.XDG_CONFIG_HOME || join(homedir(), '.config'), 'vidbot', 'config.json');
}

/** Writes the file readable by its owner alone (0600, its folder 0700), also when it existed with wider modes. */
export function saveCredentials(credentials: Credentials, env: NodeJS.ProcessEnv = process.env): string {
  const file = configFile(env);
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  writeFileSync(file, `${JSON.stringify({ base_url: credentials.baseUrl, api_key: credentials.apiKey }, null, 2)}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return file;
}

/** VIDBOT_BASE_URL and VIDBOT_API_KEY win over the file, each on its own. */
export function loadCredentials(env: NodeJS.ProcessEnv = process.env): Credentials {
  const file = configFile(env);
  let stored: { base_url?: string; api_key?: string } = {};
  if (existsSync(file)) {
    try {
      stored = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      throw new UsageError(`${file} is not valid JSON: run vidbot login again`);
    }
  }
  const baseUrl = env.VIDBOT_BASE_URL || stored.base_url;
  const apiKey = env.VIDBOT_API_KEY || stored.api_key;
  if (!baseUrl || !apiKey) throw new UsageError('no base URL or key: run vidbot login, or set VIDBOT_BASE_URL and VIDBOT_API_KEY');
  return { baseUrl, apiKey };
}
