# syntax=docker/dockerfile:1
#
# The chat admin console: the built UI and the gateway in one image.
#   docker build -t chat-admin-console .
#   docker build --build-arg SANDBOX=0 -t chat-admin-console .      # no built-in sandbox backend
#   docker run -p 8080:8080 -v console-data:/data chat-admin-console          # sandbox mode
#   docker run -p 8080:8080 -v console-data:/data \
#     -e CHAT_BACKEND_URL=http://chat-backend:8081 -e RESPONSE_AES_KEY=... chat-admin-console
#
# Without a registry (CI): .ci/build-image makes a local Node 24 base image and builds this file on
# it with --build-arg NODE_IMAGE; tests/image/image.test.ts then runs and checks the result.

# Node 24 is the current LTS; Node 20 reached its end of life in April 2026. The slim
# Debian image matches the glibc native binaries the lock file resolves for esbuild and Tailwind.
ARG NODE_IMAGE=node:24-bookworm-slim

# ---------- build: dev dependencies, UI bundle, server bundle ----------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
# Dependencies first, so a source change does not invalidate the npm ci layer.
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY build.mjs tsconfig.json ./
COPY server ./server
COPY sandbox ./sandbox
COPY web ./web
# SANDBOX=0 leaves the simulated backend out of dist/ (no sandbox-start.js, no sandbox.js): the
# image's gateway then needs CHAT_BACKEND_URL and exits 78 at start without it.
ARG SANDBOX=1
RUN SANDBOX=${SANDBOX} npm run build

# ---------- runtime: production dependencies and dist/ only ----------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8080 \
    DATA_DIR=/data \
    UI_DIR=/app/dist/web
WORKDIR /app
COPY package.json package-lock.json ./
# No production dependency needs an install script; skipping them keeps the layer reproducible.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund \
 && npm cache clean --force
COPY --from=build /app/dist ./dist
# The application files stay root-owned and read-only to the process; only /data is writable.
# Ownership is set before VOLUME so a fresh named volume is created owned by node.
RUN mkdir -p /data && chown node:node /data
VOLUME ["/data"]
USER node
EXPOSE 8080
# No curl in slim images: Node's own fetch probes the liveness endpoint on whatever PORT is set.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# Exec form: Node is PID 1 and receives SIGTERM itself, so the graceful shutdown runs.
# main.ts installs SIGTERM/SIGINT handlers, which is what PID 1 needs to stop at all.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server/main.js"]
