// This suite's version as reports name it: package.json's, plus the commit when CI says which (GITHUB_SHA).
import { readFileSync } from 'node:fs';

export function suiteVersion(env: NodeJS.ProcessEnv = process.env): string {
  const { version } = JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
  return env.GITHUB_SHA ? `${version}+${env.GITHUB_SHA.slice(0, 12)}` : version;
}
