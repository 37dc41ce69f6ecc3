import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Just enough of the Dockerfile to compare what it says with what is built from it: the stages and
 * their settings (ENV, USER, VOLUME, EXPOSE, STOPSIGNAL, HEALTHCHECK, CMD). What the image holds is
 * checked on the real image (tests/image), not replayed here.
 */

export interface Stage {
  name: string;
  image: string;
  workdir: string;
  env: Record<string, string>;
  healthcheck: string[] | null;
  /** The HEALTHCHECK flags by name: `{ interval: '15s', ... }`. */
  healthcheckOptions: Record<string, string>;
  cmd: string[] | null;
  user: string | null;
  volumes: string[];
  /** EXPOSE entries as Docker records them: `8080/tcp`. */
  exposed: string[];
  stopSignal: string | null;
}

function logicalLines(text: string): string[] {
  const out: string[] = [];
  let current = '';
  for (const raw of text.split('\n')) {
    const line = raw.trimEnd();
    if (current === '' && (line.trim() === '' || line.trimStart().startsWith('#'))) continue;
    if (current !== '' && line.trimStart().startsWith('#')) continue; // comment inside a continuation
    if (line.endsWith('\\')) {
      current += `${line.slice(0, -1)} `;
      continue;
    }
    out.push((current + line).trim());
    current = '';
  }
  if (current !== '') out.push(current.trim());
  return out;
}

function jsonArray(text: string, what: string): string[] {
  const value: unknown = JSON.parse(text);
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string'))
    throw new Error(`${what} must be a JSON array of strings`);
  return value as string[];
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const args: Record<string, string> = {};
  const expand = (value: string) =>
    value.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a: string, b: string) => args[a ?? b] ?? '');
  for (const line of logicalLines(text)) {
    const [keyword = '', ...restParts] = line.split(/\s+/);
    const rest = line.slice(keyword.length).trim();
    const stage = stages.at(-1);
    switch (keyword.toUpperCase()) {
      case 'ARG': {
        const [name, value = ''] = rest.split('=');
        if (stage === undefined && name) args[name] = value;
        break;
      }
      case 'FROM': {
        const [image = '', as, name] = restParts;
        stages.push({
          name: as?.toUpperCase() === 'AS' && name ? name : String(stages.length),
          image: expand(image),
          workdir: '/',
          env: {},
          healthcheck: null,
          healthcheckOptions: {},
          cmd: null,
          user: null,
          volumes: [],
          exposed: [],
          stopSignal: null,
        });
        break;
      }
      case 'WORKDIR':
        if (!stage) throw new Error('WORKDIR before FROM');
        stage.workdir = path.posix.resolve(stage.workdir, rest);
        break;
      case 'ENV':
        if (!stage) throw new Error('ENV before FROM');
        for (const pair of rest.split(/\s+/)) {
          const eq = pair.indexOf('=');
          if (eq <= 0) throw new Error(`ENV form not understood: ${line}`);
          stage.env[pair.slice(0, eq)] = pair.slice(eq + 1);
        }
        break;
      case 'EXPOSE':
        if (stage) stage.exposed.push(...rest.split(/\s+/).map((port) => (port.includes('/') ? port : `${port}/tcp`)));
        break;
      case 'STOPSIGNAL':
        if (stage) stage.stopSignal = rest;
        break;
      case 'USER':
        if (stage) stage.user = rest;
        break;
      case 'VOLUME':
        if (stage) stage.volumes.push(...(rest.startsWith('[') ? jsonArray(rest, 'VOLUME') : rest.split(/\s+/)));
        break;
      case 'HEALTHCHECK': {
        if (!stage) break;
        const at = rest.indexOf('CMD ');
        stage.healthcheck = at < 0 ? null : jsonArray(rest.slice(at + 4).trim(), 'HEALTHCHECK CMD');
        for (const [, name, value] of rest.slice(0, Math.max(at, 0)).matchAll(/--([a-z-]+)=(\S+)/g))
          stage.healthcheckOptions[name!] = value!;
        break;
      }
      case 'CMD':
        if (stage) stage.cmd = jsonArray(rest, 'CMD (exec form, so SIGTERM reaches node)');
        break;
      default:
        break;
    }
  }
  return stages;
}

export function readDockerfile(repoRoot: string): { stages: Stage[] } {
  return { stages: parseDockerfile(readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8')) };
}
