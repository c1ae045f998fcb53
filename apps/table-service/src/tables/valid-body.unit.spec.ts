import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { CoupValidationPipe } from '../common/validation';

/** Every controller class of the service (every `*.controller.ts` anywhere under src/). */
function controllers(): { name: string; cls: abstract new (...args: never[]) => object }[] {
  const root = join(__dirname, '..');
  const found: { name: string; cls: abstract new (...args: never[]) => object }[] = [];
  const files = readdirSync(root, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.controller.ts'),
  );
  for (const file of files) {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    const mod = require(join(root, file)) as Record<string, unknown>;
    for (const [name, value] of Object.entries(mod)) {
      if (typeof value === 'function' && Reflect.getMetadata('path', value) !== undefined)
        found.push({ name, cls: value as abstract new (...args: never[]) => object });
    }
  }
  return found;
}

type ArgMeta = Record<string, { index: number; pipes?: unknown[] }>;

/** Every parameter of one kind (body, query) of every route: where, its declared type, and whether it is validated. */
function paramsOf(
  all: ReturnType<typeof controllers>,
  kind: RouteParamtypes,
): { route: string; type: unknown; piped: boolean }[] {
  const out: { route: string; type: unknown; piped: boolean }[] = [];
  for (const { name, cls } of all) {
    for (const method of Object.getOwnPropertyNames(cls.prototype)) {
      const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, cls, method) ?? {}) as ArgMeta;
      const types = (Reflect.getMetadata('design:paramtypes', cls.prototype, method) ?? []) as unknown[];
      for (const [key, arg] of Object.entries(args)) {
        if (Number(key.split(':')[0]) !== kind) continue;
        const piped = (arg.pipes ?? []).some((p) => p instanceof CoupValidationPipe);
        out.push({ route: `${name}.${method}`, type: types[arg.index], piped });
      }
    }
  }
  return out;
}

describe('request bodies are validated', () => {
  const all = controllers();

  it('finds the controllers', () => {
    expect(all.map((c) => c.name).sort()).toEqual(
      expect.arrayContaining(['HandsController', 'OnlineController', 'TablesController']),
    );
  });

  it("every @Body() of every route carries the service's validation pipe (there is no global pipe)", () => {
    const bodies = paramsOf(all, RouteParamtypes.BODY);
    expect(bodies.map((b) => b.route)).toEqual(
      expect.arrayContaining(['TablesController.bet', 'OnlineController.buyIn']),
    );
    expect(bodies.length).toBeGreaterThanOrEqual(9);
    expect(bodies.filter((b) => !b.piped).map((b) => b.route)).toEqual([]);
  });

  it('no @Query() is typed as a DTO class without the pipe (queries are read as unknown and checked by hand)', () => {
    const queries = paramsOf(all, RouteParamtypes.QUERY);
    expect(queries.length).toBeGreaterThanOrEqual(8);
    expect(queries.filter((q) => q.type !== Object && !q.piped).map((q) => q.route)).toEqual([]);
  });
});
