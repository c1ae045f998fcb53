import { AsyncResource } from 'node:async_hooks';

type Bind = (this: AsyncResource, fn: unknown, thisArg?: unknown) => unknown;

/**
 * Node 20's `AsyncResource.prototype.bind` gives every bound function a deprecated `asyncResource` accessor
 * (DEP0172) made of two fresh `deprecate()` wrappers. Fastify binds a function this way for every request with a
 * body, and those wrappers and their garbage cost about a fifth of the request thread per bet, and half of a bare
 * NestJS endpoint's cost (docs/benchmarks.md).
 * This replaces `bind` with the same behaviour without that property: the bound function runs `fn` in the
 * resource's async scope with the caller's `this` (or `thisArg`) and arguments, and keeps `fn.length`. Anything
 * that is not a function goes to Node's own `bind`, which refuses it with its usual error. Installed only where
 * the running Node still adds the property; returns whether it was installed.
 */
export function installLeanAsyncResourceBind(): boolean {
  const original = AsyncResource.prototype.bind as unknown as Bind & { lean?: true };
  if (original.lean) return false;
  const probe = original.call(new AsyncResource('coup-probe'), () => undefined) as object;
  if (!('asyncResource' in probe)) return false;
  const lean = function bind(this: AsyncResource, fn: unknown, thisArg?: unknown): unknown {
    if (typeof fn !== 'function') return original.call(this, fn, thisArg);
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the bound function has its own `this` (the caller's)
    const resource = this;
    const bound =
      thisArg === undefined
        ? function (this: unknown, ...args: unknown[]) {
            return resource.runInAsyncScope(fn as (...a: unknown[]) => unknown, this, ...args);
          }
        : resource.runInAsyncScope.bind(resource, fn as (...a: unknown[]) => unknown, thisArg);
    Object.defineProperty(bound, 'length', {
      configurable: true,
      enumerable: false,
      value: (fn as (...a: unknown[]) => unknown).length,
      writable: false,
    });
    return bound;
  } as Bind & { lean?: true };
  lean.lean = true;
  (AsyncResource.prototype as unknown as { bind: Bind }).bind = lean;
  return true;
}
