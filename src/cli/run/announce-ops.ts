// Says where the dashboard and metrics are, and shows a newly made token once, on the terminal only: logs
// (stderr, files, journald) never carry it. A token that already existed is not shown again: it is in its file.
import type { Logger } from '../../log/logger.js';
import type { Ops } from '../../ops/index.js';
import { showOnTerminal } from '../show-once.js';
import type { OpsFlags } from './ops-flags.js';

export function announceOps(ops: Ops, flags: OpsFlags, logger: Logger): void {
  const token = ops.token;
  if (token !== undefined) {
    if (token.created) {
      const link = ops.uiUrl === undefined ? '' : `\n  open ${ops.uiUrl}/#token=${token.token}`;
      const shown = showOnTerminal(`New dashboard token (saved in ${token.file}, mode 600; shown only this once): ${token.token}${link}\n`);
      if (!shown)
        logger.warn(
          { tokenFile: token.file },
          `a new dashboard token was saved in ${token.file} (mode 600); it is not shown because there is no terminal: read it from the file`,
        );
    }
    if (flags.ui !== undefined && flags.ui.host !== '127.0.0.1' && flags.ui.host !== 'localhost' && flags.ui.host !== '::1')
      logger.warn(
        { host: flags.ui.host },
        `the dashboard listens on ${flags.ui.host}, not only on this machine: put it behind TLS (see the README's reverse-proxy setup)`,
      );
  }
  if (ops.uiUrl !== undefined)
    logger.info(
      { url: ops.uiUrl, tokenFile: token?.file, readOnly: flags.ui?.readOnly },
      `dashboard at ${ops.uiUrl} (the token is in ${token?.file}; open ${ops.uiUrl}/#token=… or paste it in the page)${flags.ui?.readOnly ? ', read-only' : ''}`,
    );
  if (ops.metricsUrl !== undefined || ops.uiUrl !== undefined)
    logger.info(
      { url: `${ops.metricsUrl ?? ops.uiUrl}/metrics` },
      `Prometheus metrics at ${ops.metricsUrl ?? ops.uiUrl}/metrics (bearer token)`,
    );
  if (flags.telegram !== undefined)
    logger.info(
      { chats: flags.telegram.chats.length },
      `Telegram: notifying ${flags.telegram.chats.length} chat(s) and taking their commands`,
    );
}
