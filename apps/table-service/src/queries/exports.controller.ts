/**
 * Exports for warehouses: one gaming day of an analysts' fact table (coups, bets, cash movements, corrections and
 * voids) as CSV or Parquet, streamed from the read models a page at a time (libs/projections/src/export, ADR-34).
 */
import { Readable } from 'node:stream';
import { Controller, Get, Inject, Param, Query, StreamableFile } from '@nestjs/common';
import {
  ApiBearerAuth,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import {
  EXPORT_FORMATS,
  EXPORT_TABLE_NAMES,
  type ExportFormat,
  ExportUnavailableError,
  ReadModels,
  exportFacts,
  exportFileName,
  exportMediaType,
  isExportTable,
} from '@coup/projections';
import { rolesFor } from '../common/access';
import type { Principal } from '@coup/auth';
import { CurrentPrincipal, Roles } from '../common/auth';
import { ApiError } from '../common/api-error';
import { ApiRefusals } from '../ops/openapi-errors';
import { queryOf } from './params';
import { readModelsUnavailable } from './read-models-provider';
import { forCaller, queryError } from './shared';

/**
 * The export's bytes once its first chunk is read: a failure before the first byte (the analysts' tables not
 * built, the database not reachable) is an error answer instead of a 200 cut short. The first chunk comes after
 * the first page of rows (a row group for Parquet).
 */
async function started(chunks: AsyncIterable<Uint8Array>): Promise<Readable> {
  const it = chunks[Symbol.asyncIterator]();
  let first: IteratorResult<Uint8Array>;
  try {
    first = await it.next();
  } catch (error) {
    if (error instanceof ExportUnavailableError)
      throw readModelsUnavailable(`not built yet: ${error.message}`);
    throw error;
  }
  async function* all(): AsyncGenerator<Uint8Array> {
    try {
      for (let next = first; !next.done; next = await it.next()) yield next.value;
    } finally {
      await it.return?.(); // a client gone: the export stops reading
    }
  }
  return Readable.from(all());
}

@ApiTags('exports')
@ApiBearerAuth()
@Controller('api/exports')
export class ExportsController {
  constructor(@Inject(ReadModels) private readonly read: ReadModels) {}

  @Get(':table')
  @Roles(...rolesFor('GET /api/exports/:table'))
  @ApiOperation({
    summary:
      'One gaming day of an analysts’ fact table for a warehouse: coups, bets, cash movements or amendments (corrections and voids), as CSV or Parquet',
    description:
      'The table’s rows whose gaming_day is the one asked for (COUP_GAMING_DAY places them), in key order, with the columns of docs/analyst-schema.md: money in integer cents. ' +
      'Parquet: INT64, DOUBLE and UTF-8 string columns (NULLs kept), SNAPPY, a row group per 50,000 rows. CSV: RFC 4180 with a header row, NULL an empty field, an empty text "". ' +
      'Streamed as it is read (Content-Disposition names the file, e.g. coups-2026-12-01.parquet); a failure after the first bytes cuts the answer short. ' +
      'A token limited to some tables exports only their rows.',
  })
  @ApiParam({ name: 'table', enum: EXPORT_TABLE_NAMES })
  @ApiQuery({ name: 'gamingDay', required: true, description: 'The gaming day, YYYY-MM-DD' })
  @ApiQuery({ name: 'format', required: false, enum: EXPORT_FORMATS, description: 'Default csv' })
  @ApiProduces('text/csv', 'application/vnd.apache.parquet')
  @ApiOkResponse({ description: 'The file', schema: { type: 'string', format: 'binary' } })
  @ApiRefusals('INVALID_QUERY')
  async export(
    @Param('table') table: string,
    @Query() query: unknown,
    @CurrentPrincipal() principal: Principal,
  ): Promise<StreamableFile> {
    if (!isExportTable(table))
      throw new ApiError(400, 'INVALID_PARAMETER', `table must be ${EXPORT_TABLE_NAMES.join(', ')}`, {
        field: 'table',
      });
    const q = queryOf(query, ['gamingDay', 'format']);
    const gamingDay = q['gamingDay'];
    if (gamingDay === undefined)
      throw new ApiError(400, 'INVALID_QUERY', 'gamingDay (YYYY-MM-DD) is required', { field: 'gamingDay' });
    const format = (q['format'] ?? 'csv') as ExportFormat;
    if (!EXPORT_FORMATS.includes(format))
      throw new ApiError(400, 'INVALID_QUERY', `format must be ${EXPORT_FORMATS.join(' or ')}`, {
        field: 'format',
      });
    const request = forCaller(principal, { table, gamingDay, format });
    const facts = queryError(() => exportFacts(this.read.sql, request));
    // read as the client reads (Readable.from pulls): memory holds a page; a failure before the first byte is
    // an error answer, after it the connection is cut
    return new StreamableFile(await started(facts), {
      type: exportMediaType(format),
      disposition: `attachment; filename="${exportFileName(table, gamingDay, format)}"`,
    });
  }
}
