# The Coup table service. Build: docker build -t coup .
# Run: docker run -p 3000:3000 -v coup-data:/app/data -e COUP_SEED_KEY=<64 hex> coup
# (see docker-compose.yml to run it against EventStoreDB). The seed key (COUP_SEED_KEY, or COUP_SEED_KEY_FILE naming
# a mounted secret file) seals unrevealed shuffle seeds at rest: keep it outside the data volume and its backups, and
# keep it for as long as the data: `openssl rand -hex 32` makes one.
FROM node:20.20-bookworm-slim AS build
WORKDIR /app
RUN apt-get update && apt-get install -y --no-install-recommends python3 make g++ && rm -rf /var/lib/apt/lists/*
COPY package.json package-lock.json ./
COPY libs libs
COPY apps apps
COPY tools tools
COPY nx.json tsconfig.base.json tsconfig.json jest.preset.js eslint.config.mjs ./
RUN npm ci --no-audit --no-fund && NX_DAEMON=false npx nx run-many -t build && npm prune --omit=dev
# What the image runs, gathered in /runtime: the root package with its production node_modules (whose @coup/* links
# point at the workspaces), and of each workspace its package.json, its build (dist) and its own node_modules. No
# sources, tests or tools/ (the EventStoreDB stand-in and the test PostgreSQL are test doubles, never shipped).
RUN mkdir /runtime && cp -a package.json node_modules /runtime/ \
  && for ws in libs/* apps/*; do \
       mkdir -p "/runtime/$ws" && cp "$ws/package.json" "/runtime/$ws/" \
       && for part in dist node_modules; do if [ -d "$ws/$part" ]; then cp -a "$ws/$part" "/runtime/$ws/"; fi; done; \
     done

FROM node:20.20-bookworm-slim
WORKDIR /app
# HOST=0.0.0.0: in a container the service must listen on every interface (the default, 127.0.0.1, is for local use).
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 COUP_DATA_DIR=/app/data
COPY --from=build /runtime /app
RUN useradd --system --uid 10001 coup && mkdir -p /app/data && chown coup /app/data && chmod 700 /app/data
USER coup
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --retries=5 CMD node -e "fetch('http://127.0.0.1:'+process.env.PORT+'/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"
STOPSIGNAL SIGTERM
# The V8 flags of tools/service-node-flags.json (as `npm start` runs the service).
CMD ["node", "--enable-source-maps", "--max-semi-space-size=64", "apps/table-service/dist/main.js"]
