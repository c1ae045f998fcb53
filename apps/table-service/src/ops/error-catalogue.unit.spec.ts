/**
 * The error catalogue holds every code the service's HTTP edge can answer, with the status it answers it with:
 * each `<status>, '<CODE>'` the source writes (ApiError, the exception filter's bodies and maps, the HTTP server's
 * refusals), the rate limits' codes and Fastify's mapped codes. The live push's socket-only frames (src/live)
 * are not HTTP answers.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ERROR_HTTP_STATUS } from '@coup/table';
import { staff } from '@coup/auth';
import { ANY_REQUEST_CODES, COMMAND_CODES, ERROR_CODES, TABLE_READ_CODES } from './error-catalogue';

const SRC = join(__dirname, '..');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return relative(SRC, path) === 'live' ? [] : sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every (status, code) the source answers with a literal code, and the codes whose status is given elsewhere. */
function answered(): { pairs: [string, number, string][]; codes: [string, string][] } {
  const pairs: [string, number, string][] = [];
  const codes: [string, string][] = [];
  for (const file of sources(SRC)) {
    const text = readFileSync(file, 'utf8');
    const where = relative(SRC, file);
    for (const m of text.matchAll(/\b([1-5]\d\d)\s*[,:]\s*'([A-Z][A-Z0-9_]+)'/g))
      pairs.push([where, Number(m[1]), m[2]!]);
    for (const m of text.matchAll(/\b(?:limitError|tooMany)\([^;]*?'([A-Z][A-Z0-9_]+)'/g))
      codes.push([where, m[1]!]);
    for (const m of text.matchAll(/\bFST_ERR_[A-Z_]+:\s*'([A-Z][A-Z0-9_]+)'/g)) codes.push([where, m[1]!]);
  }
  return { pairs, codes };
}

it('holds every code the source answers, with its status', () => {
  const { pairs, codes } = answered();
  // The scan reads what it should: the edge's own codes, the filter's maps, the server's refusals.
  expect(pairs.length).toBeGreaterThan(40);
  expect(codes.map(([, c]) => c)).toEqual(expect.arrayContaining(['RATE_LIMITED', 'TOO_MANY_AUTH_FAILURES']));
  expect(codes.map(([, c]) => c)).toEqual(expect.arrayContaining(['INVALID_JSON', 'PARAMETER_TOO_LONG']));
  const wrong = [
    ...pairs
      .filter(([, status, code]) => ERROR_CODES[code]?.status !== status)
      .map(
        ([where, status, code]) => `${where}: ${status} ${code} (catalogue: ${ERROR_CODES[code]?.status})`,
      ),
    ...codes.filter(([, code]) => !ERROR_CODES[code]).map(([where, code]) => `${where}: ${code}`),
  ];
  expect(wrong).toEqual([]);
});

it("holds the decider's and the staff accounts' codes with their statuses (but the staff's never answered)", () => {
  const neverAnswered = ['INVALID_USERNAME', 'INVALID_PASSWORD_HASH', 'INVALID_INSTANT'];
  for (const [code, status] of Object.entries({ ...ERROR_HTTP_STATUS, ...staff.STAFF_ERROR_STATUS }))
    expect([code, ERROR_CODES[code]?.status]).toEqual([
      code,
      neverAnswered.includes(code) ? undefined : status,
    ]);
});

it('groups only codes it holds, each an HTTP error status with a meaning', () => {
  for (const code of [...ANY_REQUEST_CODES, ...COMMAND_CODES, ...TABLE_READ_CODES])
    expect(ERROR_CODES[code]).toBeDefined();
  for (const [code, { status, meaning }] of Object.entries(ERROR_CODES)) {
    expect([code, status >= 400 && status <= 599, meaning.length > 0]).toEqual([code, true, true]);
  }
});
