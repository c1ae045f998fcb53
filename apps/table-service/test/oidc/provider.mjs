// A real OpenID Provider for the single sign-on tests: `oidc-provider` on loopback with its development
// interactions (a login form taking any password, then a consent form), one confidential client, and people whose
// `roles` claim names Coup roles. Run as `node provider.mjs '<json>'` with { port, redirectUri, clientId,
// clientSecret }; prints `{ "issuer": ... }` on one line once it listens. GET /test/requests lists the paths served
// (so a test can see that the JWKS was fetched).
import { createServer } from 'node:http';
import Provider from 'oidc-provider';

const { port, redirectUri, clientId, clientSecret } = JSON.parse(process.argv[2]);
const PEOPLE = {
  jane: { name: 'Jane Pit', roles: ['supervisor', 'dealer'], coup_tables: ['T1'] },
  joe: { name: 'Joe Guest', roles: ['player'] },
  // dealers whose tables claim names none, names something that is not a table id, or is not there at all
  dee: { name: 'Dee Empty', roles: ['dealer'], coup_tables: [] },
  ivy: { name: 'Ivy Invalid', roles: ['dealer'], coup_tables: ['T1', 'not a table!'] },
  abe: { name: 'Abe Absent', roles: ['dealer'] },
};
const issuer = `http://127.0.0.1:${port}`;
const provider = new Provider(issuer, {
  clients: [
    {
      client_id: clientId,
      client_secret: clientSecret,
      redirect_uris: [redirectUri],
      grant_types: ['authorization_code'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_basic',
    },
  ],
  claims: { openid: ['sub'], profile: ['name'], coup: ['roles', 'coup_tables'] },
  scopes: ['openid', 'profile', 'coup'],
  // the roles in the ID token itself
  conformIdTokenClaims: false,
  pkce: { required: () => true },
  cookies: { keys: ['coup-test-provider-cookie-key'] },
  findAccount: (_ctx, id) =>
    Object.hasOwn(PEOPLE, id)
      ? { accountId: id, claims: async () => ({ sub: id, ...PEOPLE[id] }) }
      : undefined,
});
const served = [];
const handle = provider.callback();
const server = createServer((req, res) => {
  const path = req.url.split('?')[0];
  if (path === '/test/requests') {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(served));
    return;
  }
  served.push(path);
  handle(req, res);
});
server.listen(port, '127.0.0.1', () => process.stdout.write(`${JSON.stringify({ issuer })}\n`));
process.on('SIGTERM', () => server.close(() => process.exit(0)));
