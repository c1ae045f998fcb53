import 'reflect-metadata';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { CoupValidationPipe } from '../common/validation';

/** Every controller class of the service (every `*.controller.ts` under src/). */
function controllers(): { name: string; cls: abstract new (...args: never[]) => object }[] {
  const root = join(__dirname, '..');
  const found: { name: string; cls: abstract new (...args: never[]) => object }[] = [];
  for (const dir of readdirSync(root, { withFileTypes: true })) {
    if (!dir.isDirectory()) continue;
    for (const file of readdirSync(join(root, dir.name))) {
      if (!file.endsWith('.controller.ts')) continue;
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const mod = require(join(root, dir.name, file)) as Record<string, unknown>;
      for (const [name, value] of Object.entries(mod)) {
        if (typeof value === 'function' && Reflect.getMetadata('path', value) !== undefined)
          found.push({ name, cls: value as abstract new (...args: never[]) => object });
      }
    }
  }
  return found;
}

type ArgMeta = Record<string, { index: number; pipes?: unknown[] }>;

describe('request bodies are validated', () => {
  const all = controllers();

  it('finds the controllers', () => {
    expect(all.map((c) => c.name).sort()).toEqual(
      expect.arrayContaining(['HandsController', 'OnlineController', 'TablesController']),
    );
  });

  it("every @Body() of every route carries the service's validation pipe (there is no global pipe)", () => {
    const bodies: string[] = [];
    const unvalidated: string[] = [];
    for (const { name, cls } of all) {
      for (const method of Object.getOwnPropertyNames(cls.prototype)) {
        const args = (Reflect.getMetadata(ROUTE_ARGS_METADATA, cls, method) ?? {}) as ArgMeta;
        for (const [key, arg] of Object.entries(args)) {
          if (Number(key.split(':')[0]) !== RouteParamtypes.BODY) continue;
          bodies.push(`${name}.${method}`);
          if (!(arg.pipes ?? []).some((p) => p instanceof CoupValidationPipe))
            unvalidated.push(`${name}.${method}`);
        }
      }
    }
    expect(bodies).toEqual(expect.arrayContaining(['TablesController.bet', 'OnlineController.buyIn']));
    expect(bodies.length).toBeGreaterThanOrEqual(9);
    expect(unvalidated).toEqual([]);
  });
});
