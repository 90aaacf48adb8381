// The account's other content: the security list (names in the language asked for), and community topics
// with replies, kept in memory for the run.
import { z } from 'zod';
import { isMarket, marketOf, type SecuritySymbol } from '../../../domain/symbol.js';
import { readBody, readQuery, type Route } from './router.js';
import { ServiceFailure, SIM_CODES } from './service-failure.js';

export interface ContentSources {
  readonly symbols: readonly SecuritySymbol[];
  readonly nameOf: (symbol: SecuritySymbol) => string;
  /** Epoch ms, for creation times. */
  readonly now: () => number;
}

const newTopic = z.object({
  title: z.string().min(1),
  body: z.string().min(1),
  topic_type: z.string().optional(),
  tickers: z.array(z.string()).optional(),
  hashtags: z.array(z.string()).optional(),
});
const newReply = z.object({ body: z.string().min(1), reply_to_id: z.string().optional() });
const page = z.object({ page: z.coerce.number().int().min(1).default(1), size: z.coerce.number().int().min(1).max(500).default(50) });

interface Topic {
  readonly item: Record<string, unknown>;
  readonly replies: Record<string, unknown>[];
}

const AUTHOR = { member_id: '1', name: 'simulator', avatar: '' };

export function contentRoutes(sources: ContentSources): Route[] {
  const topics = new Map<string, Topic>();
  let nextId = 1;
  const seconds = (): string => String(Math.floor(sources.now() / 1000));
  const topicOf = (id: string): Topic => {
    const topic = topics.get(id);
    if (topic === undefined) throw new ServiceFailure(404, SIM_CODES.NOT_FOUND, `topic ${id} not found`);
    return topic;
  };
  const paged = <T>(items: readonly T[], query: z.output<typeof page>): T[] =>
    items.slice((query.page - 1) * query.size, query.page * query.size);

  return [
    {
      method: 'GET',
      pattern: '/v1/quote/get_security_list',
      handler: (request) => {
        const { market } = readQuery(
          request,
          z.object({ market: z.string().refine(isMarket, 'must be HK, US, CN or SG'), category: z.string().optional() }),
        );
        const language = String(request.headers['accept-language'] ?? 'en');
        const names = (symbol: SecuritySymbol): Record<string, string> => {
          const name = sources.nameOf(symbol);
          return {
            name_cn: language === 'zh-CN' ? name : '',
            name_hk: language === 'zh-HK' ? name : '',
            name_en: language === 'zh-CN' || language === 'zh-HK' ? '' : name,
          };
        };
        return { list: sources.symbols.filter((symbol) => marketOf(symbol) === market).map((symbol) => ({ symbol, ...names(symbol) })) };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/content/topics/mine',
      handler: (request) => {
        const query = readQuery(request, page.extend({ topic_type: z.string().optional() }));
        const mine = [...topics.values()]
          .map((topic) => topic.item)
          .filter((item) => query.topic_type === undefined || item['topic_type'] === query.topic_type);
        return { items: paged(mine.reverse(), query) };
      },
    },
    {
      method: 'POST',
      pattern: '/v1/content/topics',
      handler: (request) => {
        const body = readBody(request, newTopic);
        const id = String(nextId++);
        const item = {
          id,
          title: body.title,
          description: body.body.slice(0, 140),
          body: body.body,
          author: AUTHOR,
          tickers: body.tickers ?? [],
          hashtags: body.hashtags ?? [],
          images: [],
          likes_count: 0,
          comments_count: 0,
          views_count: 0,
          shares_count: 0,
          topic_type: body.topic_type ?? 'post',
          detail_url: `${request.origin}/topics/${id}`,
          created_at: seconds(),
          updated_at: seconds(),
        };
        topics.set(id, { item, replies: [] });
        return { item: { id } };
      },
    },
    {
      method: 'GET',
      pattern: '/v1/content/topics/:id',
      handler: (request) => ({ item: topicOf(request.params['id']!).item }),
    },
    {
      method: 'GET',
      pattern: '/v1/content/topics/:id/comments',
      handler: (request) => ({ items: paged(topicOf(request.params['id']!).replies, readQuery(request, page)) }),
    },
    {
      method: 'POST',
      pattern: '/v1/content/topics/:id/comments',
      handler: (request) => {
        const topicId = request.params['id']!;
        const topic = topicOf(topicId);
        const body = readBody(request, newReply);
        const item = {
          id: String(nextId++),
          topic_id: topicId,
          body: body.body,
          reply_to_id: body.reply_to_id ?? '0',
          author: AUTHOR,
          images: [],
          likes_count: 0,
          comments_count: 0,
          created_at: seconds(),
        };
        topic.replies.push(item);
        topic.item['comments_count'] = topic.replies.length;
        return { item };
      },
    },
  ];
}
