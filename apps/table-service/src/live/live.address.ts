import type { IncomingMessage } from 'node:http';
import { createRequire } from 'node:module';

type Trust = (address: string, hop: number) => boolean;

interface ProxyAddr {
  all(request: IncomingMessage, trust: Trust): string[];
  compile(values: readonly string[]): Trust;
}

/** Fastify's own proxy-addr (its dependency), so that a socket's address is the one Fastify gives a request. */
const proxyAddr = createRequire(require.resolve('fastify'))('@fastify/proxy-addr') as ProxyAddr;

/**
 * The client address of a WebSocket's upgrade request, as Fastify's `request.ip` gives an HTTP request's under the
 * same `trustProxy` (COUP_TRUST_PROXY): the peer, or the X-Forwarded-For hop the trusted proxies vouch for. A live
 * socket's commands are counted under it with the HTTP commands of the same address.
 */
export function clientAddressOf(
  trustProxy: boolean | number | readonly string[],
): (request: IncomingMessage) => string {
  if (trustProxy === false) return (request) => request.socket?.remoteAddress ?? '';
  const trust: Trust =
    trustProxy === true
      ? () => true
      : typeof trustProxy === 'number'
        ? (_address, hop) => hop < trustProxy
        : proxyAddr.compile(trustProxy);
  return (request) => {
    if (!request.socket) return '';
    const addresses = proxyAddr.all(request, trust);
    return addresses[addresses.length - 1] ?? '';
  };
}
