// `trader topics mine|show|create|replies|reply`: the LongPort community topics of the account.
import type { CommandModule } from 'yargs';
import type { Topic, TopicReply } from '../../openapi/http/types.js';
import { printTable } from '../output.js';
import { countFlag, textFlag } from './flags.js';
import { line, present, printFields, time } from './present.js';
import { withOpenApi, type GlobalFlags } from './session.js';

interface PageArgs extends GlobalFlags {
  readonly page?: number;
  readonly size?: number;
}

const pageQuery = (args: PageArgs) => ({
  ...(args.page === undefined ? {} : { page: countFlag(args.page, '--page')! }),
  ...(args.size === undefined ? {} : { size: countFlag(args.size, '--size')! }),
});

function printTopics(topics: readonly Topic[]): void {
  if (topics.length === 0) {
    line('no topics');
    return;
  }
  printTable(
    ['ID', 'TYPE', 'TITLE', 'LIKES', 'REPLIES', 'VIEWS', 'CREATED'],
    topics.map((topic) => [
      topic.id,
      topic.topicType,
      topic.title || topic.description,
      topic.likesCount,
      topic.commentsCount,
      topic.viewsCount,
      time(topic.createdAt),
    ]),
  );
}

function printReplies(replies: readonly TopicReply[]): void {
  if (replies.length === 0) {
    line('no replies');
    return;
  }
  printTable(
    ['ID', 'AUTHOR', 'REPLY TO', 'LIKES', 'CREATED', 'TEXT'],
    replies.map((reply) => [
      reply.id,
      reply.author.name,
      reply.replyToId === '0' ? '' : reply.replyToId,
      reply.likesCount,
      time(reply.createdAt),
      reply.body.replace(/\s+/g, ' '),
    ]),
  );
}

const mine: CommandModule<object, PageArgs & { readonly topicType?: string }> = {
  command: 'mine',
  describe: 'List the topics you created',
  builder: (yargs) =>
    yargs
      .option('page', { type: 'number', describe: 'Page number, from 1' })
      .option('size', { type: 'number', describe: 'Topics per page (1–500, default 50)' })
      .option('topic-type', { type: 'string', describe: 'Only "article" or "post"' })
      .example('$0 topics mine', 'Your topics'),
  handler: async (args) => {
    const query = { ...pageQuery(args), ...(args.topicType === undefined ? {} : { topicType: args.topicType }) };
    const topics = await withOpenApi(args, (client) => client.myTopics(query));
    present(args, topics, printTopics);
  },
};

interface IdArgs extends GlobalFlags {
  readonly id: string;
}

const show: CommandModule<object, IdArgs> = {
  command: 'show <id>',
  describe: 'Show one topic in full',
  builder: (yargs) =>
    yargs.positional('id', { type: 'string', demandOption: true, describe: 'Topic id' }).example('$0 topics show 1234', 'Topic 1234'),
  handler: async (args) => {
    const id = textFlag(args.id, 'ID');
    const topic = await withOpenApi(args, (client) => client.topicDetail(id));
    present(args, topic, () => {
      printFields([
        ['id', topic.id],
        ['title', topic.title],
        ['author', topic.author.name],
        ['type', topic.topicType],
        ['tickers', topic.tickers.join(', ')],
        ['hashtags', topic.hashtags.join(', ')],
        ['likes / replies / views', `${topic.likesCount} / ${topic.commentsCount} / ${topic.viewsCount}`],
        ['created', time(topic.createdAt)],
        ['url', topic.detailUrl],
      ]);
      line('');
      line(topic.body || topic.description);
    });
  },
};

interface CreateArgs extends GlobalFlags {
  readonly title: string;
  readonly body: string;
  readonly topicType?: string;
  readonly ticker?: readonly string[];
  readonly hashtag?: readonly string[];
}

const create: CommandModule<object, CreateArgs> = {
  command: 'create',
  describe: 'Publish a new topic',
  builder: (yargs) =>
    yargs
      // nargs: a text after a space that starts with a dash is told as a value needing '=' (--body='- item').
      .option('title', { type: 'string', nargs: 1, demandOption: true, describe: 'Title' })
      .option('body', { type: 'string', nargs: 1, demandOption: true, describe: 'Body in Markdown' })
      .option('topic-type', { type: 'string', describe: '"post" (short, default) or "article"' })
      .option('ticker', { type: 'string', array: true, describe: 'Related symbol (repeatable, at most 10)' })
      .option('hashtag', { type: 'string', array: true, describe: 'Hashtag (repeatable, at most 5)' })
      .example('$0 topics create --title "Q3 notes" --body "Margins **up**" --ticker 700.HK', 'A post about Tencent'),
  handler: async (args) => {
    const topic = {
      title: textFlag(args.title, '--title'),
      body: textFlag(args.body, '--body'),
      ...(args.topicType === undefined ? {} : { topicType: args.topicType }),
      ...(args.ticker === undefined ? {} : { tickers: args.ticker.map(String) }),
      ...(args.hashtag === undefined ? {} : { hashtags: args.hashtag.map(String) }),
    };
    const created = await withOpenApi(args, (client) => client.createTopic(topic));
    present(args, created, () => line(`created topic ${created.id}`));
  },
};

const replies: CommandModule<object, IdArgs & PageArgs> = {
  command: 'replies <id>',
  describe: 'List the replies to a topic',
  builder: (yargs) =>
    yargs
      .positional('id', { type: 'string', demandOption: true, describe: 'Topic id' })
      .option('page', { type: 'number', describe: 'Page number, from 1' })
      .option('size', { type: 'number', describe: 'Replies per page (1–50, default 20)' })
      .example('$0 topics replies 1234', 'Replies to topic 1234'),
  handler: async (args) => {
    const id = textFlag(args.id, 'ID');
    const list = await withOpenApi(args, (client) => client.topicReplies(id, pageQuery(args)));
    present(args, list, printReplies);
  },
};

const reply: CommandModule<object, IdArgs & { readonly body: string; readonly replyTo?: string }> = {
  command: 'reply <id>',
  describe: 'Reply to a topic (plain text)',
  builder: (yargs) =>
    yargs
      .positional('id', { type: 'string', demandOption: true, describe: 'Topic id' })
      .option('body', { type: 'string', nargs: 1, demandOption: true, describe: 'Reply text (symbols such as 700.HK are linked)' })
      .option('reply-to', { type: 'string', describe: 'Id of the reply to answer (default: the topic itself)' })
      .example('$0 topics reply 1234 --body "Agreed"', 'A top-level reply'),
  handler: async (args) => {
    const id = textFlag(args.id, 'ID');
    const input = { body: textFlag(args.body, '--body'), ...(args.replyTo === undefined ? {} : { replyToId: args.replyTo }) };
    const created = await withOpenApi(args, (client) => client.createTopicReply(id, input));
    present(args, created, () => line(`created reply ${created.id} on topic ${id}`));
  },
};

export const topicsCommand: CommandModule = {
  command: 'topics <action>',
  describe: 'Community topics: yours, one in full, create, replies, reply',
  builder: (yargs) =>
    yargs
      .command(mine)
      .command(show)
      .command(create)
      .command(replies)
      .command(reply)
      .demandCommand(1, 'Name an action: mine, show, create, replies or reply.')
      .example('$0 topics mine', 'The topics you posted')
      .example('$0 topics create --title "Q3 notes" --body "Margins **up**" --ticker 700.HK', 'Post a topic about Tencent'),
  handler: () => undefined,
};
