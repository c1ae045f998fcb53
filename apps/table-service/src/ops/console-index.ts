/**
 * The dealer console's `index.html`, served with the casino's time zone (the gaming day's, COUP_GAMING_DAY) in
 * `<meta name="coup-time-zone">`, where the console reads it to show every time on the casino's clock whatever the
 * browser's own zone. Read once at start; the other built files are served as they are.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/** The page with the zone's meta tag first in its head (the zone is an IANA name: escaped all the same). */
export function withTimeZone(html: string, timeZone: string): string {
  const escaped = timeZone.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const meta = `<meta name="coup-time-zone" content="${escaped}" />`;
  return /<head[^>]*>/i.test(html)
    ? html.replace(/<head[^>]*>/i, (head) => `${head}${meta}`)
    : `${meta}${html}`;
}

/** Serves `/` and `/index.html` from `consoleDir` with the time zone; the static files are registered after. */
export function serveConsoleIndex(app: NestFastifyApplication, consoleDir: string, timeZone: string): void {
  const page = withTimeZone(readFileSync(join(consoleDir, 'index.html'), 'utf8'), timeZone);
  const fastify = app.getHttpAdapter().getInstance();
  for (const url of ['/', '/index.html']) {
    fastify.get(url, async (_request, reply) => {
      void reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(page);
    });
  }
}
