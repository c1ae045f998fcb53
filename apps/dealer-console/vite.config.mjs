// Vite: the React app, with the pure libraries resolved to their TypeScript sources. In dev, `/api` and `/ws` go to
// the table service on :3000; the build lands in `dist/`, which the service serves at `/`.
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const lib = (name) => fileURLToPath(new URL(`../../libs/${name}/src/index.ts`, import.meta.url));
const service = process.env.COUP_SERVICE_URL ?? 'http://localhost:3000';

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  plugins: [react()],
  resolve: { alias: { '@coup/engine': lib('engine'), '@coup/table': lib('table') } },
  server: {
    port: 5173,
    proxy: {
      '/api': { target: service, changeOrigin: true },
      '/ws': { target: service, ws: true, changeOrigin: true },
    },
  },
  build: { outDir: 'dist', emptyOutDir: true, sourcemap: true },
});
