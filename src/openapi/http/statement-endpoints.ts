// Account statements. Wire shapes from the official SDK (longportapp/openapi rust/src/asset: GET
// /v1/statement/list?statement_type=1|2&start_date=<page>&limit=<size> → {list[]{dt, file_key}};
// GET /v1/statement/download?file_key= → {url}).
import { z } from 'zod';
import type { Transport } from './transport.js';
import { STATEMENT_TYPES, type Statement, type StatementQuery } from './types.js';
import { integer, parseWire, requiredText } from './wire.js';

export async function statements(transport: Transport, query: StatementQuery): Promise<readonly Statement[]> {
  const data = await transport.call({
    method: 'GET',
    path: '/v1/statement/list',
    // The SDK names the page `start_date` (sic) and defaults to page 1 of 20.
    query: { statement_type: STATEMENT_TYPES[query.type], start_date: query.page ?? 1, limit: query.pageSize ?? 20 },
  });
  const { list } = parseWire(
    z.object({ list: z.array(z.object({ dt: integer, file_key: requiredText })) }),
    data,
    'GET /v1/statement/list',
  );
  return list.map((row) => ({ date: row.dt, fileKey: row.file_key }));
}

export async function statementDownloadUrl(transport: Transport, fileKey: string): Promise<{ readonly url: string }> {
  const data = await transport.call({ method: 'GET', path: '/v1/statement/download', query: { file_key: fileKey } });
  return parseWire(z.object({ url: requiredText }), data, 'GET /v1/statement/download');
}
