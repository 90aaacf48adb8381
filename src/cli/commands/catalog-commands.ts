// The `trader catalog` commands: the artist catalog HTTP JSON API (a separate product in src/catalog).
import type { Argv } from 'yargs';
import { lazyCommand } from './lazy-command.js';

export const catalogCommands = [
  {
    command: 'catalog <command>',
    describe: 'The artist catalog HTTP JSON API (a separate product sharing only tooling)',
    builder: (yargs: Argv) =>
      yargs
        .command(
          lazyCommand(
            'serve',
            'Serve the artist catalog API until SIGINT/SIGTERM (then finish requests in flight and stop)',
            async () => (await import('../catalog/serve-command.js')).serveCommand,
          ),
        )
        .demandCommand(1, 'Name a catalog command: serve')
        .example('CATALOG_TOKENS=s3cret $0 catalog serve --port 8080 --db catalog.sqlite', 'Serve the API on 127.0.0.1:8080'),
    handler: () => undefined,
  },
];
