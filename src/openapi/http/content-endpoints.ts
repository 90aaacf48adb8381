// Community topics. Paths and shapes from the official SDK (longportapp/openapi rust/src/content/context.rs and
// types.rs): mine → {items[]}, create → {item{id}}, detail → {item}, replies → {items[]}, reply → {item}.
// Only ids are required; the rest is sparsely documented and defaults to empty.
import { z } from 'zod';
import type { Transport } from './transport.js';
import type { MyTopicsQuery, NewTopic, NewTopicReply, PageQuery, Topic, TopicReply } from './types.js';
import { flexibleTime, integer, parseWire, requiredText, text } from './wire.js';

const count = integer.optional().transform((value) => value ?? 0);
const author = z
  .object({ member_id: text, name: text })
  .optional()
  .transform((value) => ({ memberId: value?.member_id ?? '', name: value?.name ?? '' }));

const topic = z.object({
  id: requiredText,
  title: text,
  description: text,
  body: text,
  author,
  tickers: z.array(z.string()).default([]),
  hashtags: z.array(z.string()).default([]),
  topic_type: text,
  likes_count: count,
  comments_count: count,
  views_count: count,
  detail_url: text,
  created_at: flexibleTime,
  updated_at: flexibleTime,
});

const reply = z.object({
  id: requiredText,
  topic_id: text,
  body: text,
  reply_to_id: text,
  author,
  likes_count: count,
  comments_count: count,
  created_at: flexibleTime,
});

function toTopic(row: z.output<typeof topic>): Topic {
  return {
    id: row.id,
    title: row.title,
    description: row.description,
    body: row.body,
    author: row.author,
    tickers: row.tickers,
    hashtags: row.hashtags,
    topicType: row.topic_type,
    likesCount: row.likes_count,
    commentsCount: row.comments_count,
    viewsCount: row.views_count,
    detailUrl: row.detail_url,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

function toReply(row: z.output<typeof reply>): TopicReply {
  return {
    id: row.id,
    topicId: row.topic_id,
    body: row.body,
    replyToId: row.reply_to_id,
    author: row.author,
    likesCount: row.likes_count,
    commentsCount: row.comments_count,
    createdAt: row.created_at,
  };
}

export async function myTopics(transport: Transport, query: MyTopicsQuery = {}): Promise<readonly Topic[]> {
  const data = await transport.call({
    method: 'GET',
    path: '/v1/content/topics/mine',
    query: { page: query.page, size: query.size, topic_type: query.topicType },
  });
  return parseWire(z.object({ items: z.array(topic) }), data, 'GET /v1/content/topics/mine').items.map(toTopic);
}

export async function createTopic(transport: Transport, topicInput: NewTopic): Promise<{ readonly id: string }> {
  const data = await transport.call({
    method: 'POST',
    path: '/v1/content/topics',
    body: {
      title: topicInput.title,
      body: topicInput.body,
      topic_type: topicInput.topicType,
      tickers: topicInput.tickers,
      hashtags: topicInput.hashtags,
    },
  });
  return parseWire(z.object({ item: z.object({ id: requiredText }) }), data, 'POST /v1/content/topics').item;
}

export async function topicDetail(transport: Transport, id: string): Promise<Topic> {
  const data = await transport.call({
    method: 'GET',
    path: `/v1/content/topics/${encodeURIComponent(id)}`,
    route: '/v1/content/topics/:id',
  });
  return toTopic(parseWire(z.object({ item: topic }), data, 'GET /v1/content/topics/:id').item);
}

export async function topicReplies(transport: Transport, topicId: string, query: PageQuery = {}): Promise<readonly TopicReply[]> {
  const data = await transport.call({
    method: 'GET',
    path: `/v1/content/topics/${encodeURIComponent(topicId)}/comments`,
    route: '/v1/content/topics/:id/comments',
    query: { page: query.page, size: query.size },
  });
  return parseWire(z.object({ items: z.array(reply) }), data, 'GET /v1/content/topics/:id/comments').items.map(toReply);
}

export async function createTopicReply(transport: Transport, topicId: string, input: NewTopicReply): Promise<TopicReply> {
  const data = await transport.call({
    method: 'POST',
    path: `/v1/content/topics/${encodeURIComponent(topicId)}/comments`,
    route: '/v1/content/topics/:id/comments',
    body: { body: input.body, reply_to_id: input.replyToId },
  });
  return toReply(parseWire(z.object({ item: reply }), data, 'POST /v1/content/topics/:id/comments').item);
}
