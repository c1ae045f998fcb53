/**
 * Size limits (issue 19, ADR-19): no source file under `libs/*\/src` or `apps/*\/src` over 400 lines and no function
 * over 60 lines (tests, generated files and benchmarks aside), unless it is listed in ALLOWED below with the reason
 * ARCHITECTURE.md gives. Functions are found by the TypeScript parser: declarations, methods, arrows and function
 * expressions (a React component is a function), measured from their first to their last line.
 */
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';

const ROOT = join(__dirname, '..', '..', '..');
const MAX_FILE_LINES = 400;
const MAX_FUNCTION_LINES = 60;

/** `path` or `path#function`: over a limit on purpose (ARCHITECTURE.md says why). */
const ALLOWED: Record<string, string> = {
  'apps/dealer-console/src/player/fakeTable.ts#fakeTable':
    'test support: the player page against an in-memory table',
};

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) {
      if (name !== 'node_modules' && name !== 'dist' && name !== 'testing') out.push(...sources(path));
    } else if (/\.tsx?$/.test(name) && !/\.(spec|d)\.tsx?$/.test(name)) out.push(path);
  }
  return out;
}

function projectSources(): string[] {
  const files: string[] = [];
  for (const group of ['libs', 'apps'])
    for (const project of readdirSync(join(ROOT, group))) {
      const src = join(ROOT, group, project, 'src');
      try {
        if (statSync(src).isDirectory()) files.push(...sources(src));
      } catch {
        // a project without src
      }
    }
  return files;
}

function nameOf(node: ts.Node, file: ts.SourceFile): string {
  const named = node as { name?: ts.Node };
  if (named.name) return named.name.getText(file);
  const parent = node.parent;
  if (ts.isVariableDeclaration(parent) || ts.isPropertyAssignment(parent) || ts.isPropertyDeclaration(parent))
    return parent.name.getText(file);
  return `(anonymous at line ${file.getLineAndCharacterOfPosition(node.getStart(file)).line + 1})`;
}

function longFunctions(path: string): string[] {
  const text = readFileSync(path, 'utf8');
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && (node as { body?: ts.Node }).body) {
      // From the name (or the parameters), so a method's decorators do not count as its lines.
      const named = (node as { name?: ts.Node }).name;
      const start = named ? named.getStart(file) : node.getStart(file);
      const first = file.getLineAndCharacterOfPosition(start).line;
      const last = file.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (last - first + 1 > MAX_FUNCTION_LINES)
        found.push(`${nameOf(node, file)} (${last - first + 1} lines)`);
    }
    ts.forEachChild(node, visit);
  };
  visit(file);
  return found;
}

describe('size limits', () => {
  const files = projectSources();

  it('finds the sources it measures', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it(`no source file is over ${MAX_FILE_LINES} lines`, () => {
    const over = files
      .map((f) => [relative(ROOT, f), readFileSync(f, 'utf8').split('\n').length] as const)
      .filter(([f, lines]) => lines > MAX_FILE_LINES && !(f in ALLOWED))
      .map(([f, lines]) => `${f}: ${lines} lines`);
    expect(over).toEqual([]);
  });

  it(`no function is over ${MAX_FUNCTION_LINES} lines`, () => {
    const over = files.flatMap((f) =>
      longFunctions(f)
        .filter((fn) => !(`${relative(ROOT, f)}#${fn.replace(/ \(.*$/, '')}` in ALLOWED))
        .map((fn) => `${relative(ROOT, f)}#${fn}`),
    );
    expect(over).toEqual([]);
  });
});
