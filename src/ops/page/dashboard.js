// The live dashboard's page script: keeps the token in this tab only (sessionStorage, never a cookie), reads
// the state and its live updates from the server (server-sent events read with fetch, so the token travels
// in a header), draws them, and sends a person's actions as POSTs. Everything shown is set as text, never
// parsed as HTML.
(() => {
  const TOKEN_KEY = 'longport-trader-dashboard-token';
  const LOG_LIMIT = 300;
  const state = {};
  let token = takeToken();
  let logLines = [];
  let equitySeries = null;
  let equityChartApi = null;
  let readOnlyShown;
  let retryTimer = null;

  function takeToken() {
    const hash = new URLSearchParams(location.hash.slice(1));
    const given = hash.get('token');
    if (given) {
      sessionStorage.setItem(TOKEN_KEY, given);
      history.replaceState(null, '', location.pathname + location.search);
    }
    return sessionStorage.getItem(TOKEN_KEY);
  }

  const $ = (selector) => document.querySelector(selector);

  function el(tag, attributes, ...children) {
    const node = document.createElement(tag);
    for (const [key, value] of Object.entries(attributes || {})) {
      if (value === undefined || value === null || value === false) continue;
      if (key === 'className') node.className = value;
      else if (key === 'onclick') node.addEventListener('click', value);
      else if (key.startsWith('data-')) node.setAttribute(key, String(value));
      else node.setAttribute(key, value === true ? '' : String(value));
    }
    for (const child of children) {
      if (child === undefined || child === null) continue;
      node.append(child instanceof Node ? child : String(child));
    }
    return node;
  }

  function signed(text) {
    if (text === undefined || text === null) return '';
    const value = Number(text);
    return value > 0 ? 'positive' : value < 0 ? 'negative' : '';
  }

  function shortTime(iso) {
    if (!iso) return '';
    const date = new Date(iso);
    return date.toLocaleString(undefined, {
      month: 'short',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
      hour12: false,
    });
  }

  function setRows(selector, rows, columns) {
    const body = $(`${selector} tbody`);
    body.replaceChildren(...(rows.length > 0 ? rows : [el('tr', {}, el('td', { className: 'empty', colspan: columns }, 'none'))]));
  }

  // -- actions --------------------------------------------------------------------------------------------

  function toast(message, refused) {
    const box = $('#toast');
    box.textContent = message;
    box.className = refused ? 'refused' : '';
    box.hidden = false;
    clearTimeout(toast.timer);
    toast.timer = setTimeout(() => {
      box.hidden = true;
    }, 6000);
  }

  async function act(path, body) {
    let response;
    try {
      response = await fetch(path, {
        method: 'POST',
        headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' },
        body: JSON.stringify(body || {}),
        cache: 'no-store',
      });
    } catch (error) {
      toast(`Not sent: ${error.message}`, true);
      return;
    }
    if (response.status === 401) return lock('The token was refused.');
    const answer = await response.json().catch(() => ({}));
    toast(answer.message || answer.error || `HTTP ${response.status}`, !response.ok);
  }

  // A destructive button acts on its second click within four seconds. The armed state is kept by the
  // button's action, not by the element, so a row redrawn by a live update between the clicks stays armed.
  const armed = new Map();

  function paintArmed(button) {
    const on = armed.has(button.dataset.key);
    button.classList.toggle('armed', on);
    button.textContent = on ? button.dataset.confirm || 'Click again to confirm' : button.dataset.label;
  }

  function repaintArmed(key) {
    for (const button of document.querySelectorAll('button[data-key]')) if (button.dataset.key === key) paintArmed(button);
  }

  function confirmed(button) {
    const key = button.dataset.key;
    if (armed.has(key)) {
      clearTimeout(armed.get(key));
      armed.delete(key);
      repaintArmed(key);
      return true;
    }
    armed.set(
      key,
      setTimeout(() => {
        armed.delete(key);
        repaintArmed(key);
      }, 4000),
    );
    repaintArmed(key);
    return false;
  }

  function actionButton(label, path, options) {
    const button = el('button', {
      type: 'button',
      className: options && options.danger ? 'danger' : '',
      'data-action': options && options.name,
      'data-key': path,
      'data-label': label,
    });
    if (options && options.confirm) button.dataset.confirm = options.confirm;
    paintArmed(button);
    button.disabled = state.bot && state.bot.readOnly;
    button.addEventListener('click', () => {
      if (options && options.confirm && !confirmed(button)) return;
      button.disabled = true;
      act(path).finally(() => {
        if (button.isConnected) button.disabled = state.bot && state.bot.readOnly;
      });
    });
    return button;
  }

  // -- sections -------------------------------------------------------------------------------------------

  const render = {
    bot(bot) {
      $('#bot-name').textContent = bot.name;
      const mode = $('#bot-mode');
      mode.textContent = bot.mode;
      mode.className = `badge ${bot.mode}`;
      $('#read-only').hidden = !bot.readOnly;
      document.title = `${bot.mode === 'live' ? 'LIVE · ' : ''}${bot.name} · longport-trader`;
      const parts = [`trader ${bot.kind}`, `started ${shortTime(bot.startedAt)}`];
      if (bot.marketTime) parts.push(`market time ${bot.marketTime.replace('T', ' ').slice(0, 19)} UTC`);
      $('#bot-subtitle').textContent = parts.join(' · ');
      for (const button of document.querySelectorAll('#kill-switch button')) button.disabled = bot.readOnly;
    },
    account(account) {
      const cards = [];
      for (const balance of account.balances) {
        cards.push(card(`Net assets ${balance.currency}`, balance.netAssets, 'net-assets'));
        cards.push(card(`Cash ${balance.currency}`, balance.totalCash, 'cash'));
        cards.push(card(`Buying power ${balance.currency}`, balance.buyPower, 'buy-power'));
      }
      if (account.dayPnl)
        cards.push(card(`PnL today ${account.dayPnl.currency}`, account.dayPnl.change, 'day-pnl', signed(account.dayPnl.change)));
      $('#account-cards').replaceChildren(...cards);
      $('#account-note').textContent = account.error
        ? `Account figures are stale: ${account.error}`
        : account.asOf
          ? `Account as of ${shortTime(account.asOf)}`
          : 'Reading the account…';
    },
    positions(positions) {
      setRows(
        '#positions',
        positions.map((position) =>
          el(
            'tr',
            { 'data-symbol': position.symbol },
            el('td', {}, position.symbol),
            el('td', { className: 'number' }, position.quantity),
            el('td', { className: 'number' }, position.averageCost),
            el('td', { className: 'number' }, position.lastPrice || ''),
            el(
              'td',
              { className: `number ${signed(position.unrealizedPnl)}` },
              position.unrealizedPnl === undefined ? '' : `${position.unrealizedPnl} ${position.currency}`,
            ),
            el(
              'td',
              {},
              actionButton('Flatten', `/api/positions/${encodeURIComponent(position.symbol)}/flatten`, {
                name: 'flatten',
                danger: true,
                confirm: 'Click again to flatten',
              }),
            ),
          ),
        ),
        6,
      );
    },
    orders(orders) {
      setRows(
        '#orders',
        orders.map((order) =>
          el(
            'tr',
            { 'data-order-id': order.orderId },
            el('td', {}, order.symbol),
            el('td', { className: order.side === 'Buy' ? 'positive' : 'negative' }, order.side),
            el('td', {}, order.orderType),
            el('td', { className: 'number' }, order.quantity),
            el('td', { className: 'number' }, order.price || ''),
            el('td', { className: 'number' }, order.executedQuantity),
            el('td', {}, order.status.replace(/Status$/, '')),
            el('td', { className: 'muted' }, order.tag),
            el('td', {}, actionButton('Cancel', `/api/orders/${encodeURIComponent(order.orderId)}/cancel`, { name: 'cancel' })),
          ),
        ),
        9,
      );
    },
    fills(fills) {
      setRows(
        '#fills',
        fills.map((fill) =>
          el(
            'tr',
            { 'data-fill-id': fill.fillId },
            el('td', {}, shortTime(fill.time)),
            el('td', {}, fill.strategy),
            el('td', {}, fill.symbol),
            el('td', { className: fill.side === 'Buy' ? 'positive' : 'negative' }, fill.side),
            el('td', { className: 'number' }, fill.quantity),
            el('td', { className: 'number' }, fill.price),
            el(
              'td',
              { className: `number ${signed(fill.slippageBps === undefined ? undefined : -fill.slippageBps)}` },
              fill.slippageBps === undefined ? '' : fill.slippageBps.toFixed(2),
            ),
            el('td', { className: 'muted' }, fill.tag),
          ),
        ),
        8,
      );
    },
    denials(denials) {
      setRows(
        '#denials',
        denials.map((denial) =>
          el(
            'tr',
            { 'data-code': denial.code },
            el('td', {}, shortTime(denial.time)),
            el('td', {}, denial.strategy),
            el('td', {}, denial.symbol || ''),
            el('td', {}, el('span', { className: 'badge' }, denial.code)),
            el('td', { className: 'wrap' }, denial.message),
            el(
              'td',
              { className: 'wrap muted' },
              Object.entries(denial.figures)
                .map(([key, value]) => `${key} ${value}`)
                .join(', '),
            ),
          ),
        ),
        6,
      );
    },
    equity(equity) {
      $('#equity-hint').textContent = `net assets${equity.currency ? ` (${equity.currency})` : ''}, read from the broker`;
      const series = equityChart();
      if (!series) return;
      series.setData(equity.points.map((point) => ({ time: point.time, value: point.value })));
      equityChartApi.timeScale().fitContent();
    },
    jobs(jobs) {
      setRows(
        '#jobs',
        jobs.map((job) => {
          const buttons = [];
          if (job.paused) buttons.push(actionButton('Resume', `/api/jobs/${encodeURIComponent(job.name)}/resume`, { name: 'resume' }));
          else
            buttons.push(
              actionButton('Pause', `/api/jobs/${encodeURIComponent(job.name)}/pause`, { name: 'pause', confirm: 'Click again to pause' }),
            );
          if (job.kind !== 'strategy') {
            const run = actionButton('Run now', `/api/jobs/${encodeURIComponent(job.name)}/run`, { name: 'run' });
            run.disabled = run.disabled || !job.canRunNow;
            buttons.push(run);
          }
          const last = job.lastResult
            ? `${job.lastResult.outcome} ${shortTime(job.lastResult.at)}${job.lastResult.message ? `: ${job.lastResult.message}` : ''}`
            : job.lastError || '';
          return el(
            'tr',
            { 'data-job': job.name, 'data-state': job.state },
            el('td', {}, job.name),
            el('td', {}, job.kind),
            el('td', { className: 'job-state' }, job.state),
            el('td', {}, job.next ? `${job.next.trigger} ${shortTime(job.next.at)}` : ''),
            el('td', { className: 'wrap' }, last),
            el('td', {}, ...buttons),
          );
        }),
        6,
      );
    },
    connections(connections) {
      $('#connections').replaceChildren(
        ...(connections.length === 0
          ? [el('li', { className: 'muted' }, 'none yet')]
          : connections.map((connection) =>
              el(
                'li',
                { 'data-name': connection.name, 'data-status': connection.status },
                el('span', { className: `dot ${connection.status}` }),
                `${connection.name}: ${connection.status}`,
                connection.detail ? el('span', { className: 'muted' }, ` (${connection.detail})`) : null,
                el('span', { className: 'muted small' }, ` since ${shortTime(connection.since)}`),
              ),
            )),
      );
    },
    killSwitch(kill) {
      const panel = $('#kill-switch');
      panel.dataset.tripped = String(kill.tripped);
      const badge = $('#kill-state');
      badge.textContent = kill.tripped ? 'tripped' : 'off';
      badge.className = `badge ${kill.tripped ? 'on' : 'off'}`;
      $('#kill-reason').textContent = kill.tripped
        ? `Since ${shortTime(kill.at)}: ${kill.reason}`
        : 'Trading is allowed. Tripping it holds new orders back and cancels open ones.';
      $('#kill-trip').hidden = kill.tripped;
      $('#kill-reason-input').hidden = kill.tripped;
      $('#kill-reset').hidden = !kill.tripped;
    },
    logs(lines) {
      logLines = lines.slice(0, LOG_LIMIT);
      $('#log').replaceChildren(...logLines.map(logItem));
    },
  };

  function card(label, value, key, tone) {
    return el(
      'div',
      { className: 'card', 'data-card': key },
      el('div', { className: 'label' }, label),
      el('div', { className: `value ${tone || ''}` }, value),
    );
  }

  function logItem(line) {
    return el(
      'li',
      {},
      el('span', { className: 'muted' }, `${line.time.slice(11, 19)} `),
      el('span', { className: `level ${line.level}` }, line.level),
      ` ${line.message}`,
      line.fields ? el('span', { className: 'fields' }, ` ${line.fields}`) : null,
    );
  }

  function addLog(line) {
    logLines.unshift(line);
    if (logLines.length > LOG_LIMIT) logLines.length = LOG_LIMIT;
    const list = $('#log');
    list.prepend(logItem(line));
    while (list.children.length > LOG_LIMIT) list.lastElementChild.remove();
  }

  function equityChart() {
    if (equitySeries) return equitySeries;
    const charts = window.LightweightCharts;
    if (!charts) return null;
    const css = (name) => getComputedStyle(document.documentElement).getPropertyValue(name).trim();
    equityChartApi = charts.createChart($('#equity-chart'), {
      autoSize: true,
      layout: {
        background: { type: 'solid', color: css('--surface') },
        textColor: css('--muted'),
        fontFamily: getComputedStyle(document.body).fontFamily,
      },
      grid: { vertLines: { color: css('--grid') }, horzLines: { color: css('--grid') } },
      rightPriceScale: { borderColor: css('--border') },
      timeScale: { borderColor: css('--border'), timeVisible: true, secondsVisible: true },
    });
    equitySeries = equityChartApi.addSeries(charts.AreaSeries, {
      lineColor: css('--accent'),
      topColor: 'rgba(41, 98, 255, 0.28)',
      bottomColor: 'rgba(41, 98, 255, 0.02)',
      lineWidth: 2,
      priceFormat: { type: 'price', precision: 2, minMove: 0.01 },
    });
    return equitySeries;
  }

  // -- the stream -----------------------------------------------------------------------------------------

  function apply(name, value) {
    state[name] = value;
    render[name](value);
    // Buttons follow read-only; only a change of it needs the rows drawn again.
    if (name === 'bot' && readOnlyShown !== value.readOnly) {
      readOnlyShown = value.readOnly;
      for (const other of ['jobs', 'positions', 'orders']) if (state[other]) render[other](state[other]);
    }
  }

  function dispatch(block) {
    let event = 'message';
    let data = '';
    for (const line of block.split('\n')) {
      if (line.startsWith('event:')) event = line.slice(6).trim();
      else if (line.startsWith('data:')) data += line.slice(5).trim();
    }
    if (data === '') return;
    const payload = JSON.parse(data);
    if (event === 'state') {
      apply('bot', payload.bot);
      for (const name of Object.keys(render)) if (name !== 'bot') apply(name, payload[name]);
      document.body.dataset.state = 'ready';
      $('#content').hidden = false;
      $('#token-panel').hidden = true;
    } else if (event === 'section') apply(payload.name, payload.value);
    else if (event === 'log') addLog(payload);
  }

  function setStream(text) {
    const badge = $('#stream-state');
    badge.dataset.state = text;
    badge.textContent = text === 'live' ? 'live' : 'offline, reconnecting';
  }

  function lock(message) {
    document.body.dataset.state = 'locked';
    $('#content').hidden = true;
    $('#token-panel').hidden = false;
    const error = $('#token-error');
    error.hidden = !message;
    error.textContent = message || '';
    setStream('offline');
  }

  function scheduleRetry() {
    setStream('offline');
    if (retryTimer) return;
    retryTimer = setTimeout(() => {
      retryTimer = null;
      connect();
    }, 2000);
  }

  async function connect() {
    if (!token) return lock();
    let response;
    try {
      response = await fetch('/api/events', { headers: { Authorization: `Bearer ${token}` }, cache: 'no-store' });
    } catch {
      return scheduleRetry();
    }
    if (response.status === 401) return lock('The token was refused.');
    if (response.status === 429) return lock('Too many bad tokens from this address: wait a minute, then try again.');
    if (!response.ok || !response.body) return scheduleRetry();
    setStream('live');
    const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
    let buffer = '';
    for (;;) {
      let chunk;
      try {
        chunk = await reader.read();
      } catch {
        break;
      }
      if (chunk.done) break;
      buffer += chunk.value;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        dispatch(buffer.slice(0, end));
        buffer = buffer.slice(end + 2);
      }
    }
    scheduleRetry();
  }

  $('#token-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const given = $('#token-input').value.trim();
    if (!given) return;
    token = given;
    sessionStorage.setItem(TOKEN_KEY, token);
    $('#token-input').value = '';
    connect();
  });
  for (const [id, label] of [
    ['#kill-trip', 'Trip'],
    ['#kill-reset', 'Reset'],
  ]) {
    $(id).dataset.key = id;
    $(id).dataset.label = label;
  }
  $('#kill-trip').addEventListener('click', (event) => {
    const button = event.currentTarget;
    if (!confirmed(button)) return;
    act('/api/kill-switch/trip', { reason: $('#kill-reason-input').value });
  });
  $('#kill-reset').addEventListener('click', (event) => {
    const button = event.currentTarget;
    if (!confirmed(button)) return;
    act('/api/kill-switch/reset');
  });
  connect();
})();
