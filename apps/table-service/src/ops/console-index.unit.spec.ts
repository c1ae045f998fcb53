import { withTimeZone } from './console-index';

describe('the console page with the casino time zone', () => {
  it('puts the zone first in the head', () => {
    expect(withTimeZone('<!doctype html><html><head><title>x</title></head></html>', 'Asia/Macau')).toBe(
      '<!doctype html><html><head><meta name="coup-time-zone" content="Asia/Macau" /><title>x</title></head></html>',
    );
  });
  it('escapes what it writes into the attribute', () => {
    expect(withTimeZone('<head>', 'a"<b>')).toBe(
      '<head><meta name="coup-time-zone" content="a&#34;&#60;b&#62;" />',
    );
  });
});
