// Lints in-memory probe files with the workspace's real ESLint config (run as a child process, since the
// flat config is an ES module that Jest's VM cannot load). stdin: [{ filePath, code }]; stdout: error lists.
import { ESLint } from 'eslint';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..', '..', '..');
const probes = JSON.parse(await new Response(process.stdin).text());
const eslint = new ESLint({ cwd: root });
const out = [];
for (const { filePath, code } of probes) {
  const [result] = await eslint.lintText(code, { filePath: join(root, filePath) });
  out.push((result?.messages ?? []).filter((m) => m.severity === 2).map((m) => `${m.ruleId}: ${m.message}`));
}
process.stdout.write(JSON.stringify(out));
