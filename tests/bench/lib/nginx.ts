import { spawn, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { freePort } from '../../support/ports.js';
import { pollUntil } from '../../support/wait.js';

const CANDIDATES = ['/usr/sbin/nginx', '/usr/bin/nginx', '/usr/local/sbin/nginx', '/usr/local/bin/nginx'];

export function findNginx(): string | null {
  for (const file of CANDIDATES) {
    try {
      accessSync(file, constants.X_OK);
      return file;
    } catch {
      // next candidate
    }
  }
  return null;
}

export interface RunningNginx {
  url: string;
  pid: number;
  workers: number;
  stop(): Promise<void>;
}

/**
 * nginx as a team would deploy it in front of a backend: reverse proxy with a keep-alive upstream
 * pool. A temporary prefix holds its config, pid and temp paths, so nothing of the system's
 * nginx is touched.
 */
export async function startNginx(binary: string, backendPort: number, workers: number): Promise<RunningNginx> {
  const prefix = mkdtempSync(path.join(tmpdir(), 'bench-nginx-'));
  // Workers run as an unprivileged user when we are root; they must reach the temp paths.
  chmodSync(prefix, 0o755);
  for (const dir of ['logs', 'tmp']) mkdirSync(path.join(prefix, dir));
  const port = await freePort();
  const conf = `
worker_processes ${workers};
error_log ${prefix}/logs/error.log warn;
pid ${prefix}/nginx.pid;
events { worker_connections 8192; }
http {
  access_log off;
  client_body_temp_path ${prefix}/tmp/body;
  proxy_temp_path ${prefix}/tmp/proxy;
  fastcgi_temp_path ${prefix}/tmp/fastcgi;
  uwsgi_temp_path ${prefix}/tmp/uwsgi;
  scgi_temp_path ${prefix}/tmp/scgi;
  keepalive_requests 1000000;
  keepalive_timeout 120s;
  upstream backend {
    server 127.0.0.1:${backendPort};
    keepalive 128;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://backend;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
    }
  }
}
`;
  const confFile = path.join(prefix, 'nginx.conf');
  writeFileSync(confFile, conf);
  const proc: ChildProcess = spawn(binary, ['-p', prefix, '-c', confFile, '-g', 'daemon off;'], {
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const up = await pollUntil(
    async () => {
      if (proc.exitCode !== null) return true;
      try {
        const answer = await request(`${url}/healthz-probe`);
        await answer.body.dump();
        return true;
      } catch {
        return false;
      }
    },
    { timeoutMs: 10_000, intervalMs: 100 },
  );
  if (!up || proc.exitCode !== null) {
    proc.kill('SIGKILL');
    rmSync(prefix, { recursive: true, force: true });
    throw new Error(`nginx did not start (see ${prefix}/logs/error.log)`);
  }
  return {
    url,
    pid: proc.pid!,
    workers,
    async stop() {
      // SIGQUIT is nginx's graceful stop; SIGTERM its fast one, which is all a bench needs.
      proc.kill('SIGTERM');
      const timer = setTimeout(() => proc.kill('SIGKILL'), 5_000);
      await exited;
      clearTimeout(timer);
      rmSync(prefix, { recursive: true, force: true });
    },
  };
}
