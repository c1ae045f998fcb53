import type { IncomingMessage, ServerResponse } from 'node:http';
import helmet from 'helmet';
import type { FastifyInstance } from 'fastify';

/**
 * The Content-Security-Policy of every answer. The dealer console is Vite's build: scripts and styles are files of
 * its own origin (React sets styles through the CSSOM, which no policy blocks), the live push a WebSocket to the
 * same origin (CSP 3 `'self'` covers ws: and wss: there), the favicon a `data:` URL. No inline script or style, no
 * frames, plugins or forms elsewhere, and nobody may frame the console (clickjacking a dealer). The browser test
 * (apps/dealer-console/e2e/csp.e2e.spec.ts) holds the console to it.
 */
export const CONTENT_SECURITY_POLICY = {
  useDefaults: false,
  directives: {
    defaultSrc: ["'self'"],
    baseUri: ["'self'"],
    connectSrc: ["'self'"],
    fontSrc: ["'self'", 'data:'],
    formAction: ["'self'"],
    frameAncestors: ["'none'"],
    imgSrc: ["'self'", 'data:'],
    objectSrc: ["'none'"],
    scriptSrc: ["'self'"],
    scriptSrcAttr: ["'none'"],
    styleSrc: ["'self'"],
  },
};

/** helmet's options, for a policy. */
function helmetWith(policy: typeof CONTENT_SECURITY_POLICY) {
  return helmet({
    contentSecurityPolicy: policy,
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'no-referrer' },
    // Without includeSubDomains: browsers ignore HSTS over plain HTTP (local use), and behind a TLS proxy it must
    // not reach the casino's other hosts.
    strictTransportSecurity: { maxAge: 31_536_000, includeSubDomains: false },
  });
}

const securityHeaders = helmetWith(CONTENT_SECURITY_POLICY);
/** The OpenAPI page (/docs, Swagger UI) writes inline styles: there, and only there, style-src allows them. */
const docsSecurityHeaders = helmetWith({
  ...CONTENT_SECURITY_POLICY,
  directives: { ...CONTENT_SECURITY_POLICY.directives, styleSrc: ["'self'", "'unsafe-inline'"] },
});

/** The headers helmet sets, captured once: for answers written to the socket directly (408, 431). */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = (() => {
  const headers: Record<string, string> = {};
  const response = {
    setHeader: (name: string, value: string) => (headers[name.toLowerCase()] = String(value)),
    removeHeader: (name: string) => delete headers[name.toLowerCase()],
  };
  securityHeaders({} as IncomingMessage, response as unknown as ServerResponse, () => undefined);
  return headers;
})();

/**
 * Security headers on every answer: API, errors, 404s, the console's files and the docs; `no-store` on the API's. helmet's middleware is
 * built once and runs on the raw response in the first hook (@fastify/helmet rebuilds it for every request, about
 * 4 µs, a few per cent of a bet's request thread), so even an answer a later hook gives (429) carries them.
 */
export function installSecurityHeaders(fastify: FastifyInstance): void {
  fastify.addHook('onRequest', (request, reply, done) => {
    // The API's answers are a player's chips and ledger, hands, reports: never kept by a browser or a proxy (a pit
    // PC or a kiosk is shared).
    if (request.url.startsWith('/api/')) reply.raw.setHeader('cache-control', 'no-store');
    const headers = request.url.startsWith('/docs') ? docsSecurityHeaders : securityHeaders;
    headers(request.raw, reply.raw, (error) => done(error as Error | undefined));
  });
}
