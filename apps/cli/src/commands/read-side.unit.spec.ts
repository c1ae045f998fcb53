import { closingAfter } from './read-side';

describe('closingAfter', () => {
  const failing = (message: string) => () => Promise.reject(new Error(message));

  test('closes after use and gives its result; an error closing then is thrown', async () => {
    const close = jest.fn(() => Promise.resolve());
    await expect(closingAfter(() => Promise.resolve(7), close)).resolves.toBe(7);
    expect(close).toHaveBeenCalledTimes(1);
    await expect(closingAfter(() => Promise.resolve(7), failing('close'))).rejects.toThrow('close');
  });

  test("use's error is the one thrown, also when closing fails too", async () => {
    const close = jest.fn(() => Promise.resolve());
    await expect(closingAfter(failing('use'), close)).rejects.toThrow('use');
    expect(close).toHaveBeenCalledTimes(1);
    await expect(closingAfter(failing('use'), failing('close'))).rejects.toThrow('use');
  });
});
