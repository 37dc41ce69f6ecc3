import { existsSync, readFileSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync, constants } from 'node:zlib';

export interface BundleSizes {
  /** Files the login page loads before it can run: entry JS, its static imports (transitively), CSS. */
  loginFiles: { file: string; gzip: number }[];
  loginGzip: number;
  /** Every JS and CSS file of the build, lazy chunks included. */
  wholeGzip: number;
  wholeFiles: number;
  builtAt: string | null;
}

interface Manifest {
  assets?: Record<string, { gzip?: number }>;
  builtAt?: string;
}

/** Static imports of an ES module: `import … from "x"`, `import "x"`, `export … from "x"`; never `import("x")`. */
const STATIC_IMPORT = /\b(?:import|export)\s*(?:[^"'();]*?\bfrom\s*)?["']([^"']+\.(?:js|mjs|css))["']/g;

function gzipSize(file: string, manifest: Manifest, uiDir: string): number {
  const rel = path.relative(uiDir, file).split(path.sep).join('/');
  const known = manifest.assets?.[rel]?.gzip;
  if (typeof known === 'number') return known;
  if (existsSync(`${file}.gz`)) return statSync(`${file}.gz`).size;
  return gzipSync(readFileSync(file), { level: constants.Z_BEST_COMPRESSION }).length;
}

function resolveRef(ref: string, from: string, uiDir: string): string | null {
  if (/^[a-z]+:|^\/\//i.test(ref)) return null; // another origin: not part of our bundle
  const file = ref.startsWith('/') ? path.join(uiDir, ref) : path.resolve(path.dirname(from), ref);
  return existsSync(file) ? file : null;
}

function attr(tag: string, name: string): string | null {
  return new RegExp(`\\b${name}\\s*=\\s*["']([^"']+)["']`, 'i').exec(tag)?.[1] ?? null;
}

/**
 * What the login page costs a first visitor, read from the built files themselves (index.html and
 * the import statements of the entry), so it holds whatever the build's manifest says or omits.
 */
export function measureBundle(uiDir: string): BundleSizes {
  const indexFile = path.join(uiDir, 'index.html');
  const html = readFileSync(indexFile, 'utf8');
  const manifestFile = path.join(uiDir, 'manifest.json');
  const manifest: Manifest = existsSync(manifestFile)
    ? (JSON.parse(readFileSync(manifestFile, 'utf8')) as Manifest)
    : {};

  const roots: string[] = [];
  for (const tag of html.match(/<script\b[^>]*>/gi) ?? []) {
    const src = attr(tag, 'src');
    if (src) roots.push(src);
  }
  for (const tag of html.match(/<link\b[^>]*>/gi) ?? []) {
    const rel = (attr(tag, 'rel') ?? '').toLowerCase();
    const href = attr(tag, 'href');
    if (href && (rel === 'stylesheet' || rel === 'modulepreload')) roots.push(href);
  }

  const seen = new Set<string>();
  const queue = roots.map((ref) => resolveRef(ref, indexFile, uiDir)).filter((f): f is string => f !== null);
  while (queue.length > 0) {
    const file = queue.shift()!;
    if (seen.has(file)) continue;
    seen.add(file);
    if (!/\.m?js$/.test(file)) continue;
    const text = readFileSync(file, 'utf8');
    for (const match of text.matchAll(STATIC_IMPORT)) {
      const target = resolveRef(match[1]!, file, uiDir);
      if (target && !seen.has(target)) queue.push(target);
    }
  }
  const loginFiles = [...seen].map((file) => ({
    file: path.relative(uiDir, file),
    gzip: gzipSize(file, manifest, uiDir),
  }));

  const all: string[] = [];
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.(m?js|css)$/.test(entry.name)) all.push(full);
    }
  };
  walk(uiDir);
  return {
    loginFiles,
    loginGzip: loginFiles.reduce((sum, f) => sum + f.gzip, 0),
    wholeGzip: all.reduce((sum, f) => sum + gzipSize(f, manifest, uiDir), 0),
    wholeFiles: all.length,
    builtAt: manifest.builtAt ?? null,
  };
}
