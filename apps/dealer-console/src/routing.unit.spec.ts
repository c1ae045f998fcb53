/** Hash routes: path patterns, the first match wins, and the app's table sends each role home. */
import { NAV, ROUTES } from './App';
import { isHome, path, resolve, route } from './routing';

describe('path', () => {
  const table = path('#/pit/tables/:tableId');
  it.each([
    ['#/pit/tables/T1', { tableId: 'T1' }],
    ['#/pit/tables/T1/', { tableId: 'T1' }],
    ['#/pit/tables/a_b-9', { tableId: 'a_b-9' }],
    ['#/pit/tables/', null],
    ['#/pit/tables/T 1', null],
    ['#/pit/tables/T1/x', null],
    ['#/pit/tablesX/T1', null],
    ['#/pit', null],
  ])('%j -> %j', (hash, match) => expect(table(hash)).toEqual(match));

  it('matches a fixed path exactly', () => {
    expect(path('#/pit')('#/pit')).toEqual({});
    expect(path('#/pit')('#/pitstop')).toBeNull();
  });
});

it('home is no hash, # or #/', () => {
  expect(['', '#', '#/'].map(isHome)).toEqual([true, true, true]);
  expect(isHome('#/pit')).toBe(false);
});

it('the first matching route wins', () => {
  const a = route({ match: path('#/x/:id'), render: () => 'a' });
  const b = route({ match: path('#/x/one'), render: () => 'b' });
  expect(resolve([a, b], '#/x/one')?.route).toBe(a);
  expect(resolve([b, a], '#/x/one')?.route).toBe(b);
  expect(resolve([a, b], '#/y')).toBeNull();
});

describe("the app's routes", () => {
  const rolesAt = (hash: string) => resolve(ROUTES, hash)?.route.roles;
  it.each([
    ['#/', undefined],
    ['#/pit', ['admin']],
    ['#/pit/open', ['admin']],
    ['#/pit/staff', ['admin']],
    ['#/pit/tables/T1', ['admin']],
    ['#/supervisor', ['supervisor']],
    ['#/supervisor/tables/T1', ['supervisor']],
    ['#/play', ['player']],
    ['#/compliance', ['compliance', 'admin']],
    ['#/compliance?table=T1&outcome=void', ['compliance', 'admin']],
    ['#/compliance/players/alice', ['compliance', 'admin']],
    ['#/analyst', ['analyst', 'admin']],
    ['#/analyst?table=T1&from=2026-12-01', ['analyst', 'admin']],
  ])('%s is for %j', (hash, roles) => expect(rolesAt(hash)).toEqual(roles));

  it('a table, its hands and a replay are for every staff reader', () => {
    for (const hash of ['#/tables/T1', '#/tables/T1/hands', '#/tables/T1/hands/3?step=2'])
      expect(rolesAt(hash)).toEqual(expect.arrayContaining(['admin', 'dealer', 'supervisor', 'compliance']));
  });

  it('an unknown address matches nothing', () => expect(resolve(ROUTES, '#/nowhere')).toBeNull());
});

describe("the header's screens", () => {
  it('each link opens a route its roles may see', () => {
    for (const n of NAV) {
      const found = resolve(ROUTES, n.href);
      expect({ href: n.href, roles: found?.route.roles }).toEqual({
        href: n.href,
        roles: expect.arrayContaining([...n.roles]) as unknown,
      });
    }
  });
});
