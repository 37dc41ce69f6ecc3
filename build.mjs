#!/usr/bin/env node
// Builds the browser bundle (JS + Tailwind CSS + index.html + precompressed copies) into dist/web
// and the gateway into dist/server. `--watch` rebuilds on change and runs the gateway.
import * as esbuild from 'esbuild';
import { compile, optimize } from '@tailwindcss/node';
import { createHash } from 'node:crypto';
import { spawn } from 'node:child_process';
import { existsSync, watch as fsWatch } from 'node:fs';
import { mkdir, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import zlib from 'node:zlib';

const root = path.dirname(fileURLToPath(import.meta.url));
const webDir = path.join(root, 'web');
// OUT_DIR puts dist/ elsewhere (a test builds into a temporary folder); `--server-only` skips the UI.
const outDir = path.resolve(root, process.env.OUT_DIR || 'dist');
const outWeb = path.join(outDir, 'web');
const outServer = path.join(outDir, 'server');
const watchMode = process.argv.includes('--watch');
const serverOnly = process.argv.includes('--server-only');
// SANDBOX=0 builds an image without the simulated backend: its gateway needs CHAT_BACKEND_URL.
const withSandbox = process.env.SANDBOX !== '0';

const gzip = promisify(zlib.gzip);
const brotli = promisify(zlib.brotliCompress);
const COMPRESSIBLE = /\.(js|css|html|svg|json)$/;

const SERVER_ENTRIES = [
  { in: 'server/main.ts', out: 'main' },
  // The image has no tsx: `node dist/server/audit-verify.js /data` checks the audit chain there.
  { in: 'server/audit/verify-main.ts', out: 'audit-verify' },
  // The sandbox stays out of main.js: main.ts loads sandbox-start.js, beside it, by a path esbuild
  // does not follow, and only when no CHAT_BACKEND_URL is set. sandbox.js runs it alone.
  ...(withSandbox
    ? [
        { in: 'sandbox/start.ts', out: 'sandbox-start' },
        { in: 'sandbox/main.ts', out: 'sandbox' },
      ]
    : []),
];

// ---------- Tailwind ----------

/** Every UI source file (.ts, .tsx, .html) under `dir`. */
async function uiSources(dir, into = []) {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) await uiSources(full, into);
    else if (/\.(tsx?|html)$/.test(entry.name)) into.push(full);
  }
  return into;
}

/** Every token in these files that could be a class name; Tailwind ignores the ones that are not. */
async function candidatesOf(files, into = new Set()) {
  for (const file of files) {
    const text = await readFile(file, 'utf8');
    for (const token of text.split(/[\s"'`{}()<>,;=]+/)) {
      if (token && token.length < 120 && /^[!\-a-z0-9@[*]/.test(token) && !token.includes('//')) into.add(token);
    }
  }
  return into;
}

/** Tailwind's CSS for the classes of `files`, or of every UI source when `files` is omitted. */
async function buildCss(files) {
  const from = path.join(webDir, 'styles.css');
  const source = await readFile(from, 'utf8');
  const compiler = await compile(source, { base: webDir, from, onDependency: () => {} });
  const candidates = await candidatesOf(files ?? (await uiSources(webDir)));
  const css = compiler.build([...candidates]);
  return optimize(css, { minify: true, file: from }).code;
}

/**
 * The UI modules a visitor who is not logged in runs: the entry and what it imports statically,
 * and the pages shown before the login (the login form, the error pages) with theirs. Their
 * classes make the login page's stylesheet; the whole UI's comes with the frame after the login.
 */
const BEFORE_LOGIN_PAGES = ['web/pages/login-page.tsx', 'web/pages/error-page.tsx'];
function beforeLoginSources(metafile) {
  const seen = new Set();
  const queue = ['web/main.tsx', ...BEFORE_LOGIN_PAGES];
  while (queue.length > 0) {
    const file = queue.pop();
    if (seen.has(file) || !metafile.inputs[file]) continue;
    seen.add(file);
    for (const i of metafile.inputs[file].imports) if (i.kind === 'import-statement' && !i.external) queue.push(i.path);
  }
  return [...seen].filter((f) => f.startsWith('web/')).map((f) => path.join(root, f));
}

// ---------- helpers ----------

const hashOf = (data) => createHash('sha256').update(data).digest('base64url').slice(0, 10).toUpperCase();

async function compressBeside(file) {
  const data = await readFile(file);
  const [gz, br] = await Promise.all([
    gzip(data, { level: zlib.constants.Z_BEST_COMPRESSION }),
    brotli(data, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length,
      },
    }),
  ]);
  await Promise.all([writeFile(`${file}.gz`, gz), writeFile(`${file}.br`, br)]);
  return { raw: data.length, gzip: gz.length, brotli: br.length };
}

async function listFiles(dir) {
  const out = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...(await listFiles(full)));
    else out.push(full);
  }
  return out;
}

const kb = (n) => `${(n / 1024).toFixed(1).padStart(7)} KB`;

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#409EFF"/><path d="M8 10h16v10H14l-5 4v-4H8z" fill="#fff"/></svg>\n`;

function indexHtml({ js, css, fullCss, preload }) {
  const modulePreloads = preload.map((p) => `    <link rel="modulepreload" href="/${p}">`).join('\n');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8">
    <meta name="viewport" content="width=device-width, initial-scale=1">
    <meta name="referrer" content="strict-origin-when-cross-origin">
    <title>后台</title>
    <link rel="icon" href="/favicon.svg" type="image/svg+xml">
    <link rel="stylesheet" href="/${css}">
    <meta name="full-styles" content="/${fullCss}">
${modulePreloads}
    <script type="module" src="/${js}"></script>
  </head>
  <body class="antialiased">
    <div id="app"></div>
    <noscript>This console needs JavaScript.</noscript>
  </body>
</html>
`;
}

// ---------- web ----------

/**
 * wouter and @preact/signals-react import useSyncExternalStore from its React 17 shim, which on
 * React 19 only hands back React's own, yet ships its fallback in the login page's bundle: the
 * shim's module is replaced by React's export.
 */
const reactOwnSyncStore = {
  name: 'react-own-sync-external-store',
  setup(build) {
    build.onResolve({ filter: /^use-sync-external-store\/shim(\/index\.js)?$/ }, () => ({
      path: 'use-sync-external-store',
      namespace: 'react-own',
    }));
    build.onLoad({ filter: /.*/, namespace: 'react-own' }, () => ({
      contents: "export { useSyncExternalStore } from 'react';",
      resolveDir: root,
      loader: 'js',
    }));
  },
};

const webOptions = {
  absWorkingDir: root,
  entryPoints: { main: 'web/main.tsx' },
  plugins: [reactOwnSyncStore],
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'browser',
  target: 'es2022',
  // NO_MINIFY=1 keeps names readable in a CPU profile of the UI.
  minify: !process.env.NO_MINIFY,
  sourcemap: false,
  outdir: outWeb,
  entryNames: 'assets/[name]-[hash]',
  chunkNames: 'assets/[name]-[hash]',
  assetNames: 'assets/[name]-[hash]',
  publicPath: '/',
  metafile: true,
  jsx: 'automatic',
  legalComments: 'none',
  define: { 'process.env.NODE_ENV': '"production"' },
  loader: { '.svg': 'file', '.png': 'file' },
  logLevel: 'silent',
};

/** esbuild has written the JS; add CSS, index.html, precompressed copies and the manifest. */
async function finishWeb(metafile) {
  const outputs = Object.entries(metafile.outputs);
  const entry = outputs.find(([, o]) => o.entryPoint === 'web/main.tsx');
  if (!entry) throw new Error('esbuild produced no entry output for web/main.tsx');
  const js = path.relative(outWeb, path.join(root, entry[0])).split(path.sep).join('/');
  // Chunks the entry imports statically are fetched at once; preloading them saves a round trip.
  const preload = entry[1].imports
    .filter((i) => i.kind === 'import-statement' && !i.external)
    .map((i) => path.relative(outWeb, path.join(root, i.path)).split(path.sep).join('/'));

  const [loginCssText, cssText] = await Promise.all([buildCss(beforeLoginSources(metafile)), buildCss()]);
  const loginCss = `assets/login-${hashOf(loginCssText)}.css`;
  const css = `assets/styles-${hashOf(cssText)}.css`;
  await writeFile(path.join(outWeb, loginCss), loginCssText);
  await writeFile(path.join(outWeb, css), cssText);
  await writeFile(path.join(outWeb, 'favicon.svg'), FAVICON);
  await writeFile(path.join(outWeb, 'index.html'), indexHtml({ js, css: loginCss, fullCss: css, preload }));

  const files = (await listFiles(outWeb)).filter((f) => COMPRESSIBLE.test(f));
  const sizes = {};
  await Promise.all(
    files.map(async (f) => {
      sizes[path.relative(outWeb, f).split(path.sep).join('/')] = await compressBeside(f);
    }),
  );
  const manifest = {
    entry: { js, css: loginCss, html: 'index.html' },
    /** The whole UI's stylesheet, loaded by the frame after the login (web/ui/full-styles.ts). */
    fullCss: css,
    preload,
    assets: Object.fromEntries(Object.entries(sizes).sort(([a], [b]) => a.localeCompare(b))),
    builtAt: new Date().toISOString(),
  };
  await writeFile(path.join(outWeb, 'manifest.json'), `${JSON.stringify(manifest, null, 2)}\n`);
  return { manifest, sizes };
}

function printSizes(sizes, manifest) {
  const rows = Object.entries(sizes).sort(([a], [b]) => a.localeCompare(b));
  console.log('  asset'.padEnd(52), '      raw', '     gzip');
  for (const [name, s] of rows) console.log(`  ${name.padEnd(50)}`, kb(s.raw), kb(s.gzip));
  const first = [manifest.entry.js, manifest.entry.css, ...manifest.preload];
  const firstGzip = first.reduce((sum, f) => sum + (sizes[f]?.gzip ?? 0), 0);
  console.log(`  first load (entry JS + CSS + preloads), gzip: ${kb(firstGzip).trim()}`);
}

async function buildWeb() {
  await rm(outWeb, { recursive: true, force: true });
  await mkdir(outWeb, { recursive: true });
  const result = await esbuild.build(webOptions);
  const { manifest, sizes } = await finishWeb(result.metafile);
  printSizes(sizes, manifest);
}

// ---------- server ----------

function serverOptions(entries) {
  return {
    absWorkingDir: root,
    entryPoints: entries.map((e) => ({ in: e.in, out: e.out })),
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node20',
    packages: 'external',
    sourcemap: true,
    outdir: outServer,
    logLevel: 'silent',
  };
}

function presentServerEntries() {
  return SERVER_ENTRIES.filter((e) => {
    if (existsSync(path.join(root, e.in))) return true;
    console.warn(`warning: ${e.in} does not exist yet; skipping it`);
    return false;
  });
}

async function buildServer() {
  const entries = presentServerEntries();
  if (entries.length === 0) return;
  await mkdir(outServer, { recursive: true });
  // A build without the sandbox must not leave an earlier build's bundles behind for main.js to load.
  if (!withSandbox) {
    await Promise.all(
      ['sandbox-start', 'sandbox'].flatMap((name) =>
        [`${name}.js`, `${name}.js.map`].map((file) => rm(path.join(outServer, file), { force: true })),
      ),
    );
  }
  await esbuild.build(serverOptions(entries));
  for (const e of entries) {
    const s = await stat(path.join(outServer, `${e.out}.js`));
    console.log(`  server/${e.out}.js`.padEnd(52), kb(s.size));
  }
}

function reportFailure(error) {
  if (error?.errors?.length) {
    for (const m of error.errors) {
      const where = m.location ? `${m.location.file}:${m.location.line}:${m.location.column}: ` : '';
      console.error(`error: ${where}${m.text}`);
    }
  } else console.error(error);
}

// ---------- watch ----------

async function runWatch() {
  await rm(outWeb, { recursive: true, force: true });
  await mkdir(outWeb, { recursive: true });

  const onEnd = (name, after) => ({
    name,
    setup(build) {
      build.onEnd(async (result) => {
        if (result.errors.length) {
          reportFailure(result);
          return;
        }
        try {
          await after(result);
          console.log(`[${new Date().toLocaleTimeString()}] ${name} rebuilt`);
        } catch (error) {
          reportFailure(error);
        }
      });
    },
  });

  // The gateway reads index.html once at start, so it restarts after every successful build
  // (web or server), and only starts once both exist.
  let server = null;
  let webReady = false;
  let serverReady = false;
  let restarting = Promise.resolve();
  const restartServer = () => {
    restarting = restarting.then(async () => {
      if (!webReady || !serverReady || !existsSync(path.join(outServer, 'main.js'))) return;
      if (server) {
        const old = server;
        const exited = new Promise((resolve) => old.once('exit', resolve));
        old.kill('SIGTERM');
        await exited;
      }
      server = spawn(process.execPath, ['--enable-source-maps', path.join(outServer, 'main.js')], {
        stdio: 'inherit',
        env: { ...process.env, UI_DIR: process.env.UI_DIR ?? outWeb },
      });
      const mine = server;
      mine.on('exit', () => {
        if (server === mine) server = null;
      });
    });
  };

  const webCtx = await esbuild.context({
    ...webOptions,
    plugins: [
      {
        name: 'clean-web',
        setup(build) {
          // Old hashed files would pile up across rebuilds.
          build.onStart(async () => {
            await rm(path.join(outWeb, 'assets'), { recursive: true, force: true });
          });
        },
      },
      onEnd('web', async (result) => {
        await finishWeb(result.metafile);
        webReady = true;
        restartServer();
      }),
    ],
  });
  await webCtx.watch();

  // Class names live in .tsx files esbuild already watches, but styles.css is not imported by JS.
  fsWatch(path.join(webDir, 'styles.css'), () => void webCtx.rebuild().catch(() => {}));

  const entries = presentServerEntries();
  if (entries.length) {
    const serverCtx = await esbuild.context({
      ...serverOptions(entries),
      plugins: [
        onEnd('server', async () => {
          serverReady = true;
          restartServer();
        }),
      ],
    });
    await serverCtx.watch();
  }

  const stop = () => {
    server?.kill('SIGTERM');
    process.exit(0);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  console.log('watching web/ and server/ for changes');
}

// ---------- main ----------

const started = performance.now();
try {
  if (watchMode) {
    await runWatch();
  } else {
    await Promise.all([serverOnly ? null : buildWeb(), buildServer()]);
    console.log(`built in ${Math.round(performance.now() - started)} ms`);
  }
} catch (error) {
  reportFailure(error);
  process.exit(1);
}
