# One image for both processes of the service (design §1): the API (default command) and the Temporal
# worker (`node dist/apps/worker/main.js`). Node 24 LTS, the major the project pins (design §1a).
ARG NODE_IMAGE=node:24.21.0-trixie-slim

# ---- build: compile TypeScript, copy the SQL migrations, pre-build the workflow bundle ----
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
# npm ci runs the postinstall mends of postgres.js and the Temporal worker (scripts/patch-postgres.mjs, scripts/patch-temporal-worker.mjs).
COPY scripts/patch-postgres.mjs scripts/patch-temporal-worker.mjs ./scripts/
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY apps ./apps
COPY activities ./activities
COPY backends ./backends
COPY workflows ./workflows
COPY contracts ./contracts
COPY db ./db
COPY temporal ./temporal
COPY core ./core
COPY scripts/build-workflow-bundle.ts scripts/write-build-info.ts ./scripts/
# Only what names HEAD (.dockerignore lets HEAD and the refs through): the build bakes the commit
# and its own time into dist/build-info.json, so /version names them with no build argument.
COPY .git/ ./.git/
# The registry resolves its migrations next to the compiled db/registry.js (dist/db/migrations).
RUN npm run build \
 && cp -r db/migrations dist/db/migrations \
 && npx tsx scripts/build-workflow-bundle.ts dist/workflow-bundle.js

# ---- deps: production dependencies only, resolved from the same lock file ----
FROM ${NODE_IMAGE} AS deps
WORKDIR /app
COPY package.json package-lock.json ./
COPY scripts/patch-postgres.mjs scripts/patch-temporal-worker.mjs ./scripts/
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force

# ---- runtime ----
FROM ${NODE_IMAGE} AS runtime
# Overrides of what the build baked into dist/build-info.json; empty: the baked values stand.
ARG SERVICE_VERSION=0.14.0
ARG SERVICE_COMMIT=
ARG SERVICE_BUILT=
# Node 24 sizes the young generation from the host's memory; small semi-spaces keep the resident
# set near the live heap. The worker's Temporal core runs many native threads, and glibc gives each
# its own malloc arena: two arenas held a full site's worker at 277-284 MiB instead of 308-316
# (docs/performance.md).
ENV NODE_ENV=production \
    NODE_OPTIONS=--max-semi-space-size=4 \
    MALLOC_ARENA_MAX=2 \
    SERVICE_VERSION=${SERVICE_VERSION} \
    SERVICE_COMMIT=${SERVICE_COMMIT} \
    SERVICE_BUILT=${SERVICE_BUILT} \
    WORKFLOW_BUNDLE=/app/dist/workflow-bundle.js
WORKDIR /app
# Files stay owned by root: the service user can read its code but not rewrite it.
COPY package.json ./
COPY --from=deps /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
USER node
EXPOSE 8080
# Liveness of the API on the port LISTEN_ADDRESS names (default :8080), over TLS when it is on. The
# check runs inside the container, so a self-signed certificate is accepted for this call only.
# The worker shares the image and serves no HTTP: docker-compose.yml turns this check off for it.
HEALTHCHECK --interval=15s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "const a=process.env.LISTEN_ADDRESS||':8080';const i=a.lastIndexOf(':');let h=a.slice(0,i).replace(/^\\[|\\]$/g,'');if(!h||h==='0.0.0.0'||h==='::')h='127.0.0.1';if(h.includes(':'))h='['+h+']';const tls=Boolean(process.env.TLS_CERT_FILE);if(tls)process.env.NODE_TLS_REJECT_UNAUTHORIZED='0';fetch((tls?'https':'http')+'://'+h+':'+a.slice(i+1)+'/healthz',{signal:AbortSignal.timeout(4000)}).then((r)=>process.exit(r.ok?0:1),()=>process.exit(1))"]
# The API's live data is bounded (a site has at most 63 tenants; state lives in the registry): a
# bounded old generation makes V8 collect instead of growing (docs/performance.md).
CMD ["node", "--max-old-space-size=128", "dist/apps/api/main.js"]
