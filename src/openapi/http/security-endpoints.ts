// The security list (PROTOCOL.md §4; its shape `{list[]{symbol, name_cn, name_en,
// name_hk}}` and its required `category` are from the official docs, openapi-website quote/security).
import { z } from 'zod';
import type { Transport } from './transport.js';
import type { Security, SecurityListQuery } from './types.js';
import { parseWire, requiredText, text } from './wire.js';

const securityList = z.object({ list: z.array(z.object({ symbol: requiredText, name_cn: text, name_en: text, name_hk: text })) });

export async function securities(transport: Transport, query: SecurityListQuery): Promise<readonly Security[]> {
  const language = query.language ?? 'en';
  const data = await transport.call({
    method: 'GET',
    path: '/v1/quote/get_security_list',
    query: { market: query.market, category: query.category ?? 'Overnight' },
    headers: { 'accept-language': language },
  });
  return parseWire(securityList, data, 'GET /v1/quote/get_security_list').list.map((row) => {
    const preferred = { en: row.name_en, 'zh-CN': row.name_cn, 'zh-HK': row.name_hk }[language];
    return {
      symbol: row.symbol,
      name: preferred || row.name_en || row.name_hk || row.name_cn,
      nameEn: row.name_en,
      nameCn: row.name_cn,
      nameHk: row.name_hk,
    };
  });
}
