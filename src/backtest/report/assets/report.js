// The backtest report's page script: draws the charts from the embedded data and pages the trades table.
(function () {
  'use strict';
  var LWC = window.LightweightCharts;
  var data = JSON.parse(document.getElementById('report-data').textContent);
  var charts = [];

  function cssVar(name) {
    return getComputedStyle(document.documentElement).getPropertyValue(name).trim();
  }

  // The charts' colours, from report.css's palette in force: set again when it changes (light, dark, paper).
  function theme() {
    return {
      layout: {
        background: { type: 'solid', color: cssVar('--surface') },
        textColor: cssVar('--muted'),
        fontFamily: getComputedStyle(document.body).fontFamily,
      },
      grid: { vertLines: { color: cssVar('--grid') }, horzLines: { color: cssVar('--grid') } },
      rightPriceScale: { borderColor: cssVar('--border') },
      timeScale: { borderColor: cssVar('--border') },
    };
  }

  function makeChart(id) {
    var chart = LWC.createChart(document.getElementById(id), Object.assign({ autoSize: true }, theme()));
    // Set once, not with the colours: minBarSpacing set again while printing crashed the renderer.
    chart.timeScale().applyOptions({ timeVisible: data.intraday, secondsVisible: false, minBarSpacing: 0.001 });
    charts.push(chart);
    return chart;
  }

  // Times arrive delta-encoded (first value absolute) to keep the page small.
  function undelta(deltas) {
    var times = new Array(deltas.length);
    var time = 0;
    for (var i = 0; i < deltas.length; i += 1) {
      time += deltas[i];
      times[i] = time;
    }
    return times;
  }

  var money = new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 });
  function moneyFormat(value) {
    return money.format(value);
  }

  function percentFormat(value) {
    return value.toFixed(2) + '%';
  }

  // Price chart, one symbol at a time, with a marker per fill.
  var priceChart = makeChart('price-chart');
  var candles = priceChart.addSeries(LWC.CandlestickSeries, {
    upColor: cssVar('--positive'), downColor: cssVar('--negative'), borderVisible: false,
    wickUpColor: cssVar('--positive'), wickDownColor: cssVar('--negative'),
  });
  // Markers stay out of the autoscale: with hundreds of them it reached down to 0 and squashed the candles.
  var markers = LWC.createSeriesMarkers(candles, [], { autoScale: false });

  function showSymbol(index) {
    var series = data.symbols[index];
    var times = undelta(series.time);
    var bars = new Array(times.length);
    // Prices arrive in whole units of 1 / scale: closes delta-encoded, the rest as differences from the close.
    var scale = series.scale;
    // The axis shows the symbol's decimal places (at least 2): at the default 2, prices of 0.0001 all read 0.00.
    var places = Math.max(2, Math.round(Math.log10(scale)));
    candles.applyOptions({ priceFormat: { type: 'price', precision: places, minMove: Math.pow(10, -places) } });
    var close = 0;
    for (var i = 0; i < bars.length; i += 1) {
      close += series.close[i];
      bars[i] = {
        time: times[i],
        open: (close + series.open[i]) / scale,
        high: (close + series.high[i]) / scale,
        low: (close + series.low[i]) / scale,
        close: close / scale,
      };
    }
    candles.setData(bars);
    // A long run's candles are joined (at most 20,000 drawn: each keeps its bars' open, extremes and close).
    var joined = document.getElementById('candles-joined');
    if (joined) joined.textContent = series.group > 1 ? 'each candle joins ' + series.group + ' bars' : '';
    var labelled = series.fills.length <= 40;
    markers.setMarkers(series.fills.map(function (fill) {
      var buy = fill[1] === 'B';
      return {
        time: fill[0],
        position: buy ? 'belowBar' : 'aboveBar',
        shape: buy ? 'arrowUp' : 'arrowDown',
        color: buy ? cssVar('--positive') : cssVar('--negative'),
        text: labelled ? (buy ? 'B ' : 'S ') + fill[2] : undefined,
      };
    }));
    priceChart.timeScale().fitContent();
  }

  var selector = document.getElementById('symbol');
  if (selector) {
    selector.addEventListener('change', function () { showSymbol(Number(selector.value)); });
  }
  if (data.symbols.length > 0) showSymbol(0);

  // Equity against the initial cash, and the drawdown below it, scrolled together.
  var points = data.equity.time.length;
  var equityChart = makeChart('equity-chart');
  var equity = equityChart.addSeries(LWC.BaselineSeries, {
    baseValue: { type: 'price', price: data.initialCash },
    topLineColor: cssVar('--positive'), bottomLineColor: cssVar('--negative'),
    topFillColor1: 'rgba(8, 153, 129, 0.22)', topFillColor2: 'rgba(8, 153, 129, 0.02)',
    bottomFillColor1: 'rgba(242, 54, 69, 0.02)', bottomFillColor2: 'rgba(242, 54, 69, 0.22)',
    lineWidth: 2, priceFormat: { type: 'custom', formatter: moneyFormat, minMove: 0.01 },
  });
  var drawdownChart = makeChart('drawdown-chart');
  var drawdown = drawdownChart.addSeries(LWC.BaselineSeries, {
    baseValue: { type: 'price', price: 0 },
    topLineColor: cssVar('--negative'), bottomLineColor: cssVar('--negative'),
    topFillColor1: 'rgba(0, 0, 0, 0)', topFillColor2: 'rgba(0, 0, 0, 0)',
    bottomFillColor1: 'rgba(242, 54, 69, 0.08)', bottomFillColor2: 'rgba(242, 54, 69, 0.4)',
    lineWidth: 1, priceFormat: { type: 'custom', formatter: percentFormat, minMove: 0.01 },
  });
  var equityTimes = undelta(data.equity.time);
  var equityData = new Array(points);
  var drawdownData = new Array(points);
  for (var p = 0; p < points; p += 1) {
    equityData[p] = { time: equityTimes[p], value: data.equity.value[p] };
    drawdownData[p] = { time: equityTimes[p], value: data.equity.drawdown[p] };
  }
  equity.setData(equityData);
  drawdown.setData(drawdownData);
  equityChart.timeScale().fitContent();
  drawdownChart.timeScale().fitContent();

  var syncing = false;
  function follow(source, target) {
    source.timeScale().subscribeVisibleLogicalRangeChange(function (range) {
      if (syncing || range === null) return;
      syncing = true;
      target.timeScale().setVisibleLogicalRange(range);
      syncing = false;
    });
  }
  follow(equityChart, drawdownChart);
  follow(drawdownChart, equityChart);

  // Trades, a page at a time (the data holds them all).
  var PAGE = 50;
  var page = 0;
  var body = document.querySelector('#trades tbody');
  var status = document.getElementById('trades-page');
  var previous = document.getElementById('trades-previous');
  var next = document.getElementById('trades-next');
  var NUMERIC = [false, false, true, false, true, false, true, true, true, true, false];

  // printing: every trade, not the page on screen.
  var printing = false;
  function renderTrades() {
    var pages = Math.max(1, Math.ceil(data.trades.length / PAGE));
    body.textContent = '';
    (printing ? data.trades : data.trades.slice(page * PAGE, (page + 1) * PAGE)).forEach(function (trade) {
      var row = document.createElement('tr');
      for (var c = 0; c < 11; c += 1) {
        var cell = document.createElement('td');
        cell.textContent = trade[c];
        var classes = [];
        if (NUMERIC[c]) classes.push('number');
        if ((c === 7 || c === 8) && trade[11]) classes.push(trade[11]);
        cell.className = classes.join(' ');
        row.appendChild(cell);
      }
      body.appendChild(row);
    });
    if (status) status.textContent = printing ? 'All ' + data.trades.length + ' trades' : 'Page ' + (page + 1) + ' of ' + pages;
    if (previous) previous.disabled = page === 0;
    if (next) next.disabled = page >= pages - 1;
  }
  // Printing (or saving as PDF) lists every trade, then the page returns to the one on screen.
  function setPrinting(on) {
    if (printing === on) return;
    printing = on;
    renderTrades();
  }
  window.addEventListener('beforeprint', function () { setPrinting(true); });
  window.addEventListener('afterprint', function () { setPrinting(false); });
  window.matchMedia('print').addEventListener('change', function (event) { setPrinting(event.matches); });
  if (previous) previous.addEventListener('click', function () { page -= 1; renderTrades(); });
  if (next) next.addEventListener('click', function () { page += 1; renderTrades(); });
  renderTrades();

  // Follow the system's light/dark switch.
  window.matchMedia('(prefers-color-scheme: dark)').addEventListener('change', function () {
    charts.forEach(function (chart) { chart.applyOptions(theme()); });
  });
  // On paper, light whatever the system's setting: each chart a picture in the paper's palette.
  printCharts(charts, theme);

  // The charts, for scripts and the browser console (and the page's tests).
  window.report = { priceChart: priceChart, equityChart: equityChart, drawdownChart: drawdownChart };
  document.body.setAttribute('data-rendered', 'true');
})();
