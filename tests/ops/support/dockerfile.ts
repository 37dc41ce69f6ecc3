import { cpSync, mkdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * Just enough of the Dockerfile and .dockerignore to replay an image's file system without Docker:
 * the stages, their WORKDIR, ENV, COPY lines, HEALTHCHECK and CMD. Forms the project does not use
 * (globs in COPY sources, heredocs, ADD) are refused loudly rather than replayed wrongly.
 */

export interface CopyStep {
  /** Stage name of --from, or null for the build context. */
  from: string | null;
  sources: string[];
  dest: string;
}

export interface Stage {
  name: string;
  image: string;
  workdir: string;
  env: Record<string, string>;
  copies: CopyStep[];
  runs: string[];
  healthcheck: string[] | null;
  cmd: string[] | null;
  user: string | null;
  volumes: string[];
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
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string')) throw new Error(`${what} must be a JSON array of strings`);
  return value as string[];
}

export function parseDockerfile(text: string): Stage[] {
  const stages: Stage[] = [];
  const args: Record<string, string> = {};
  const expand = (value: string) => value.replace(/\$\{(\w+)\}|\$(\w+)/g, (_m, a: string, b: string) => args[a ?? b] ?? '');
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
          copies: [],
          runs: [],
          healthcheck: null,
          cmd: null,
          user: null,
          volumes: [],
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
      case 'COPY': {
        if (!stage) throw new Error('COPY before FROM');
        let from: string | null = null;
        const words = restParts.filter((word) => {
          if (word.startsWith('--from=')) from = word.slice('--from='.length);
          return !word.startsWith('--');
        });
        if (words.length < 2 || words.some((w) => /[*?[]/.test(w)) || rest.includes('<<')) {
          throw new Error(`COPY form not understood by the replay: ${line}`);
        }
        stage.copies.push({ from, sources: words.slice(0, -1), dest: words.at(-1)! });
        break;
      }
      case 'ADD':
        throw new Error(`ADD is not replayed; use COPY: ${line}`);
      case 'RUN':
        stage?.runs.push(rest);
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

/** A .dockerignore as Docker reads it: patterns in order, `!` re-includes, the last match wins. */
export function dockerignoreFilter(text: string): (relativePath: string) => boolean {
  const rules = text
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const include = line.startsWith('!');
      const pattern = path.posix.normalize((include ? line.slice(1) : line).replace(/^\/+/, '').replace(/\/+$/, ''));
      const source = pattern
        .split('/')
        .map((part) => (part === '**' ? '.*' : part.replace(/[.+^${}()|\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]')))
        .join('/')
        .replace(/\.\*\//g, '(?:.*/)?');
      return { include, regex: new RegExp(`^${source}$`) };
    });
  return (relativePath) => {
    const parts = relativePath.split('/');
    // A path is ignored when it or any folder above it matches, as Docker does.
    const prefixes = parts.map((_, i) => parts.slice(0, i + 1).join('/'));
    let kept = true;
    for (const rule of rules) {
      if (prefixes.some((prefix) => rule.regex.test(prefix))) kept = rule.include;
    }
    return kept;
  };
}

/**
 * Replays a stage's COPY lines into `root`, which stands for the stage's WORKDIR. Sources come from
 * the build context (filtered by .dockerignore) or, for --from, from the folder standing for that
 * stage's WORKDIR.
 */
export function replayCopies(
  stage: Stage,
  root: string,
  context: { dir: string; keep: (relativePath: string) => boolean },
  stageRoots: Record<string, { root: string; workdir: string }>,
): void {
  const hostPath = (imagePath: string, base: { root: string; workdir: string }) => {
    const absolute = path.posix.resolve(base.workdir, imagePath);
    const relative = path.posix.relative(base.workdir, absolute);
    if (relative.startsWith('..')) throw new Error(`the replay maps only paths under WORKDIR ${base.workdir}: ${imagePath}`);
    return path.join(base.root, relative);
  };
  const self = { root, workdir: stage.workdir };
  for (const step of stage.copies) {
    const destIsFolder = step.dest.endsWith('/') || step.sources.length > 1;
    const dest = hostPath(step.dest, self);
    for (const source of step.sources) {
      let from: string;
      let filter: ((src: string) => boolean) | undefined;
      if (step.from === null) {
        from = path.join(context.dir, source);
        if (!context.keep(path.posix.normalize(source))) throw new Error(`COPY ${source}: .dockerignore keeps it out of the build context`);
        filter = (src) => context.keep(path.relative(context.dir, src).split(path.sep).join('/'));
      } else {
        const base = stageRoots[step.from];
        if (!base) throw new Error(`COPY --from=${step.from}: no such stage replayed`);
        from = hostPath(source, base);
      }
      // A folder's contents land in dest; a file lands in dest, or inside it when dest is a folder.
      const target = statSync(from).isDirectory() || !destIsFolder ? dest : path.join(dest, path.basename(source));
      mkdirSync(path.dirname(target), { recursive: true });
      cpSync(from, target, { recursive: true, ...(filter ? { filter } : {}) });
    }
  }
}

export function readDockerfile(repoRoot: string): { stages: Stage[]; keep: (relativePath: string) => boolean } {
  return {
    stages: parseDockerfile(readFileSync(path.join(repoRoot, 'Dockerfile'), 'utf8')),
    keep: dockerignoreFilter(readFileSync(path.join(repoRoot, '.dockerignore'), 'utf8')),
  };
}
