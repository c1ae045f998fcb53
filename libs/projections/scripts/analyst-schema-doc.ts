/**
 * Prints the generated part of docs/analyst-schema.md (the analysts' tables and report views, from their
 * definitions): `node --import tsx libs/projections/scripts/analyst-schema-doc.ts`. A unit test checks the page.
 */
import { analystSchemaMarkdown } from '../src/reports/analyst-doc';

process.stdout.write(analystSchemaMarkdown());
