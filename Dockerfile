# syntax=docker/dockerfile:1
# One image for the three processes (docker-compose.yml, deploy/): the API, the worker, migrations.
# Reproducible: the Node image is pinned, dependencies come from the lock (`npm ci`), and the
# runtime stage holds compiled JavaScript and production dependencies only (docs/decisions/0152).

# ---- build: all dependencies, TypeScript compiled to dist/, the workflow bundle built once ----
FROM node:22.23.3-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
# Scripts are skipped: embedded PostgreSQL and the Node dev dependency are for development only.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY apps ./apps
COPY workflows ./workflows
COPY activities ./activities
COPY db ./db
COPY domain ./domain
COPY lib ./lib
COPY dev/build-dist.ts ./dev/build-dist.ts
COPY docs/api-changelog.json ./docs/api-changelog.json
RUN npx tsx dev/build-dist.ts

# ---- production dependencies only ----
FROM node:22.23.3-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# @swc/core's install script fetches nothing: the binary comes as its optional platform package.
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

# ---- runtime: node on compiled output, as the unprivileged `node` user ----
FROM node:22.23.3-bookworm-slim AS runtime
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000 LOG_FORMAT=json
COPY --from=deps --chown=root:root /app/node_modules ./node_modules
COPY --from=build --chown=root:root /app/dist ./dist
COPY package.json ./
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --retries=3 CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The API by default; the worker runs `node dist/apps/worker/src/main.js`, migrations `node dist/db/cli.js migrate`.
# --max-semi-space-size=8: V8's young generation capped at 8 MiB semi-spaces (16 by default) keeps the
# idle API ~15 MiB smaller at no measured throughput cost (decision 0231). deploy/api.yaml,
# docker-compose.yml and the benches start the API with the same flags.
CMD ["node", "--max-semi-space-size=8", "dist/apps/api/src/server.js"]
