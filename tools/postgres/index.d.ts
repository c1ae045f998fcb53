export interface TestPostgres {
    /** A superuser's connection string to the `postgres` database. */
    readonly adminUrl: string;
    /** Creates an empty database of its own and answers its connection string. */
    createDatabase(prefix?: string): Promise<string>;
    /** Stops the server this process started (nothing for a server from the environment). */
    stop(): Promise<void>;
}
/** A connection string with another database name. */
export declare function withDatabase(url: string, database: string): string;
/** Starts (or finds) a PostgreSQL server for this test file. */
export declare function startTestPostgres(): Promise<TestPostgres>;
