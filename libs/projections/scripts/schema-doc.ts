/**
 * Prints the read-model schema (every projection's tables and columns, from their definitions) as Markdown, for
 * the README: `node --import tsx libs/projections/scripts/schema-doc.ts`. A unit test checks the README holds
 * exactly this text, so the documentation cannot drift from the code.
 */
import { schemaMarkdown } from '../src/read-models/schema-doc';

process.stdout.write(schemaMarkdown());
