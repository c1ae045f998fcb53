import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import { installLeanAsyncResourceBind } from './async-resource-bind';

describe('the lean AsyncResource.bind', () => {
  const nodeAddsTheProperty = 'asyncResource' in new AsyncResource('before').bind(() => undefined);
  const installed = installLeanAsyncResourceBind();

  it('is installed where Node adds the deprecated asyncResource property, and only once', () => {
    expect(installed).toBe(nodeAddsTheProperty);
    expect(installLeanAsyncResourceBind()).toBe(false);
    expect('asyncResource' in new AsyncResource('after').bind(() => undefined)).toBe(false);
  });

  it("runs the function in the resource's async scope, not the caller's", () => {
    const als = new AsyncLocalStorage<string>();
    const resource = als.run('where it was made', () => new AsyncResource('test'));
    const bound = resource.bind(() => [als.getStore(), executionAsyncId()]);
    const [store, asyncId] = als.run('where it is called', () => bound());
    expect(store).toBe('where it was made');
    expect(asyncId).toBe(resource.asyncId());
    // The same with a thisArg (Node's typings omit the parameter).
    const bindWithThis = resource.bind as unknown as (
      this: AsyncResource,
      fn: (this: unknown) => unknown[],
      thisArg: unknown,
    ) => () => unknown[];
    const withThis = bindWithThis.call(
      resource,
      function (this: unknown) {
        return [als.getStore(), executionAsyncId(), this];
      },
      'the thisArg',
    );
    expect(als.run('where it is called', () => withThis())).toEqual([
      'where it was made',
      resource.asyncId(),
      'the thisArg',
    ]);
  });

  it("passes the caller's this and arguments, or the given thisArg, and returns the result", () => {
    type F = (this: unknown, a: number, b: number) => number;
    const resource = new AsyncResource('test');
    const f: F = function (this: unknown, a: number, b: number) {
      return ((this as { k?: number } | undefined)?.k ?? 0) + a * b;
    };
    const bound = resource.bind(f);
    expect(bound.call({ k: 1 }, 2, 3)).toBe(7);
    // Node takes a thisArg too (its typings do not say so).
    const bindWithThis = resource.bind as unknown as (this: AsyncResource, fn: F, thisArg: unknown) => F;
    expect(bindWithThis.call(resource, f, { k: 10 }).call(undefined, 2, 3)).toBe(16);
    expect(AsyncResource.bind(f).call(undefined, 4, 5)).toBe(20);
  });

  it('keeps the length of the function', () => {
    const bound = new AsyncResource('test').bind((a: number, b: number, c: number) => a + b + c);
    expect(bound.length).toBe(3);
  });

  it("refuses what is not a function with Node's own error", () => {
    expect(() => new AsyncResource('test').bind(42 as never)).toThrow(
      expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }),
    );
  });

  it('lets an error thrown by the function through', () => {
    const bound = new AsyncResource('test').bind(() => {
      throw new Error('boom');
    });
    expect(() => bound()).toThrow('boom');
  });
});
