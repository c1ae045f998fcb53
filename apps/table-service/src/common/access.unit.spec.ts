/**
 * The access matrix (access.ts) against the code and the documentation: every routed method of every controller
 * has a row and the roles of its guard are the row's, and the README's API table says the same cell for cell. The
 * answers over HTTP are held to it by test/role-matrix.e2e.spec.ts.
 */
import 'reflect-metadata';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { METHOD_METADATA, PATH_METADATA } from '@nestjs/common/constants';
import { RequestMethod } from '@nestjs/common';
import { ROLES } from '@coup/auth';
import { ACCESS, ROLE_COLUMNS, rolesFor } from './access';
import { PUBLIC_KEY, ROLES_KEY } from './auth';

type Handler = (...args: unknown[]) => unknown;

/** Every routed method of every controller under src/: `METHOD /path`, its guard's roles, and whether it is public. */
function routes(): { route: string; roles: readonly string[]; isPublic: boolean }[] {
  const root = join(__dirname, '..');
  const out: { route: string; roles: readonly string[]; isPublic: boolean }[] = [];
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.controller.ts'),
  );
  for (const file of files) {
    const mod = require(join(root, file)) as Record<string, unknown>;
    for (const value of Object.values(mod)) {
      if (typeof value !== 'function' || Reflect.getMetadata(PATH_METADATA, value) === undefined) continue;
      const base = String(Reflect.getMetadata(PATH_METADATA, value));
      const proto = (value as { prototype: Record<string, Handler> }).prototype;
      for (const name of Object.getOwnPropertyNames(proto)) {
        const handler = proto[name]!;
        const method = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
        const path = Reflect.getMetadata(PATH_METADATA, handler) as string | undefined;
        if (method === undefined || path === undefined) continue;
        const full = `/${base}/${path}`.replace(/\/+/g, '/').replace(/(.)\/$/, '$1');
        const isPublic = Boolean(
          Reflect.getMetadata(PUBLIC_KEY, handler) ?? Reflect.getMetadata(PUBLIC_KEY, value),
        );
        const roles = (Reflect.getMetadata(ROLES_KEY, handler) ??
          Reflect.getMetadata(ROLES_KEY, value) ??
          ROLES) as readonly string[];
        out.push({ route: `${RequestMethod[method]} ${full}`, roles, isPublic });
      }
    }
  }
  return out;
}

/** The README's API table: route -> the role cells, in the README's column order. */
function readmeMatrix(): { columns: string[]; rows: Map<string, string[]> } {
  const readme = readFileSync(join(__dirname, '..', '..', '..', '..', 'README.md'), 'utf8');
  const lines = readme.split('\n');
  const header = lines.findIndex((l) => /^\|\s*method and path\s*\|/.test(l));
  expect(header).toBeGreaterThan(0);
  const cellsOf = (line: string) =>
    line
      .slice(1, -1)
      .split('|')
      .map((c) => c.trim());
  const columns = cellsOf(lines[header]!).slice(2);
  const rows = new Map<string, string[]>();
  for (const line of lines.slice(header + 2)) {
    if (!line.startsWith('|')) break;
    const cells = cellsOf(line);
    const route = /^`([A-Z]+ \/[^`?\s]*)/.exec(cells[0]!)?.[1];
    expect([line, route]).toEqual([line, expect.any(String)]);
    expect(rows.has(route!)).toBe(false);
    rows.set(route!, cells.slice(2));
  }
  return { columns, rows };
}

describe('the access matrix', () => {
  const all = routes();
  const guarded = all.filter((r) => !r.isPublic);

  it('has one row per guarded route of the controllers, and no other', () => {
    expect(guarded.length).toBeGreaterThanOrEqual(27);
    expect(guarded.map((r) => r.route).sort()).toEqual(ACCESS.map((r) => r.route).sort());
    expect(new Set(ACCESS.map((r) => r.route)).size).toBe(ACCESS.length);
    // the routes without a token are health, metrics and the staff sign-in's
    expect(
      all
        .filter((r) => r.isPublic)
        .map((r) => r.route)
        .sort(),
    ).toEqual([
      'GET /api/auth/oidc/callback',
      'GET /api/auth/oidc/start',
      'GET /api/auth/options',
      'GET /health',
      'GET /metrics',
      'POST /api/auth/sign-in',
    ]);
  });

  it.each(ACCESS.map((r) => r.route))(
    "%s: the route guard lets exactly the matrix's roles through",
    (route) => {
      const found = guarded.find((r) => r.route === route);
      expect([...found!.roles].sort()).toEqual([...rolesFor(route)].sort());
    },
  );

  it("the README's API table is the matrix, cell for cell", () => {
    const { columns, rows } = readmeMatrix();
    expect(columns).toEqual([...ROLE_COLUMNS]);
    expect([...rows.keys()]).toEqual(ACCESS.map((r) => r.route));
    for (const { route, access } of ACCESS) {
      expect([route, ...rows.get(route)!]).toEqual([route, ...ROLE_COLUMNS.map((role) => access[role])]);
    }
  });

  it('knows every role, and a route of no one is an error', () => {
    expect([...ROLE_COLUMNS].sort()).toEqual([...ROLES].sort());
    expect(() => rolesFor('GET /nowhere')).toThrow(/no access row/);
  });
});
