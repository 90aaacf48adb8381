// The optimize page's heatmap, drawn in the browser (the axes are chosen there) from #report-data. Every
// param value and number reaches the page as text (textContent), never as markup.
import { DECIMAL_PLACES_SCRIPT } from './decimal-places.js';

export const HEATMAP_SCRIPT = `${DECIMAL_PLACES_SCRIPT}
// Colours go by rank among the cells shown, not by distance from the lowest: one outlier (a profitFactor of 54
// among values of 1 to 2) would otherwise leave every other cell the same colour. The legend names the value
// at each quarter of the ramp; each cell's tooltip gives its exact figure.
function hue(share) {
  if (!data.higherIsBetter) share = 1 - share;
  return 'hsl(' + Math.round(share * 120) + ', 70%, 60%)';
}
function rankScale(values) {
  var sorted = values.slice().sort(function (a, b) { return a - b; }), last = sorted.length - 1;
  // How many sorted values are below value (or at most value, when inclusive).
  function count(value, inclusive) {
    var low = 0, high = sorted.length;
    while (low < high) {
      var middle = (low + high) >> 1;
      if (sorted[middle] < value || (inclusive && sorted[middle] === value)) low = middle + 1;
      else high = middle;
    }
    return low;
  }
  return {
    // 0 for the lowest, 1 for the highest; equal values share their mean rank.
    share: function (value) { return last > 0 ? (count(value, false) + count(value, true) - 1) / 2 / last : 0.5; },
    // The value at share (0 … 1) of the ranks, between the two nearest.
    at: function (share) {
      var position = share * last, below = Math.floor(position), above = Math.min(last, below + 1);
      return sorted[below] + (position - below) * (sorted[above] - sorted[below]);
    },
  };
}
// Axes of more than MAX_BINS values are cut into bins of neighbouring values; a cell shows the best trial in it.
var MAX_BINS = 40;
function binSize(count) { return Math.ceil(count / MAX_BINS); }
function binLabels(values, size) {
  var labels = [];
  for (var start = 0; start < values.length; start += size) {
    var end = Math.min(values.length, start + size) - 1;
    labels.push(end === start ? String(values[start]) : values[start] + '–' + values[end]);
  }
  return labels;
}
function element(tag, text, className) {
  var made = document.createElement(tag);
  if (text !== undefined) made.textContent = text;
  if (className) made.className = className;
  return made;
}
// Each cell of the shown axes (others held at the best trial's values): its best ranked trial, and how many of
// its trials left a hole and why (refused by the strategy, left out of the ranking). y is null when one param
// was searched: one row.
function bestCells(x, y, xSize, ySize) {
  var trials = data.trials, objective = trials.objective, best = data.best;
  var others = data.names.filter(function (name) { return name !== x && name !== y; });
  var cells = {};
  for (var i = 0; i < objective.length; i++) {
    var held = true;
    for (var k = 0; best && k < others.length; k++) if (trials.params[others[k]][i] !== best[others[k]]) held = false;
    if (!held) continue;
    var key = Math.floor(trials.params[x][i] / xSize) + '|' + (y === null ? 0 : Math.floor(trials.params[y][i] / ySize));
    var cell = cells[key] || (cells[key] = { value: null, row: -1, hole: -1, count: 0, reasons: {} });
    var value = objective[i];
    cell.count += 1;
    if (value === null) {
      if (cell.hole < 0) cell.hole = i;
      var reason = data.reasons[trials.reason[i]] || 'no figure';
      cell.reasons[reason] = (cell.reasons[reason] || 0) + 1;
    } else if (cell.value === null || (data.higherIsBetter ? value > cell.value : value < cell.value)) {
      cell.value = value;
      cell.row = i;
    }
  }
  return cells;
}
// "fast=10 slow=80 quantity=100": a trial's params as text.
function paramsText(row) {
  return data.names.map(function (name) { return name + '=' + data.values[name][data.trials.params[name][row]]; }).join(' ');
}
// What a cell's tooltip says: its best trial and figure, or why it is a hole.
function cellTitle(cell) {
  if (cell === undefined) return "no trial with these values (the other parameters held at the best trial's)";
  var why = Object.keys(cell.reasons).map(function (reason) { return reason + (cell.count > 1 ? ' ×' + cell.reasons[reason] : ''); }).join(', ');
  if (cell.value === null) return (cell.count > 1 ? cell.count + ' trials, none ranked: ' : paramsText(cell.hole) + ': ') + why;
  return paramsText(cell.row) + ': ' + data.metric + ' ' + cell.value + (cell.count > 1 ? ' (best of ' + cell.count + ' trials' + (why ? '; ' + why : '') + ')' : '');
}
var QUARTERS = [0, 0.25, 0.5, 0.75, 1];
function drawLegend(scale, count, places) {
  var legend = document.getElementById('heat-legend');
  legend.textContent = '';
  if (count === 0) return;
  var ramp = element('span', undefined, 'ramp');
  ramp.style.background = 'linear-gradient(to right, ' + QUARTERS.map(hue).join(', ') + ')';
  // The values at a quarter, half and three quarters of the ranks, on the ramp where their colours are.
  if (count > 2) [0.25, 0.5, 0.75].forEach(function (share) {
    var mark = element('span', scale.at(share).toFixed(places), 'mark');
    mark.style.left = share * 100 + '%';
    ramp.append(mark);
  });
  legend.append(element('span', scale.at(0).toFixed(places), 'low'), ramp, element('span', scale.at(1).toFixed(places), 'high'),
    element('span', 'colour by rank among the ' + count + ' cells, not by distance: a quarter of them between neighbouring marks · ' + (data.higherIsBetter ? 'higher' : 'lower') + ' is better', 'hint'));
}
// On paper the heatmap is cut into blocks of columns, each with the row labels, so that its type is at least
// PRINT_MIN_PX (one table of many columns shrank it past reading). A block takes the paper's width, its type sized
// for its columns and their longest text, \`chars\`, by page.ts's formula; PRINT_WIDTH is the table's width on a
// portrait A4 or Letter page within Chromium's default margins, in CSS px.
var PRINT_WIDTH = 680, PRINT_MIN_PX = 9;
function drawPrintBlocks(table, x, chars) {
  var blocks = document.getElementById('heat-print');
  blocks.textContent = '';
  var rows = Array.prototype.slice.call(table.rows), columns = rows[0].cells.length - 1;
  var fit = Math.max(1, Math.floor(PRINT_WIDTH / (chars * 0.6 * PRINT_MIN_PX + 4)) - 1);
  var count = Math.ceil(columns / fit), size = Math.ceil(columns / count);
  for (var start = 0; start < columns; start += size) {
    var end = Math.min(columns, start + size), block = element('table', undefined, 'heatmap');
    var head = element('thead'), body = element('tbody');
    rows.forEach(function (row, index) {
      var copy = element('tr');
      [row.cells[0]].concat(Array.prototype.slice.call(row.cells, start + 1, end + 1)).forEach(function (cell) { copy.append(cell.cloneNode(true)); });
      (index === 0 ? head : body).append(copy);
    });
    if (count > 1) block.append(element('caption', x + ' ' + rows[0].cells[start + 1].textContent + ' … ' + rows[0].cells[end].textContent + ' · part ' + (start / size + 1) + ' of ' + count));
    block.append(head, body);
    // Every block's columns as wide as a full block's: a short last block keeps the others' type.
    block.style.setProperty('--heat-columns', String(size + 1));
    block.style.setProperty('--heat-chars', String(chars));
    block.style.width = ((end - start + 1) / (size + 1)) * 100 + '%';
    blocks.append(block);
  }
}
// The axes drawn: {x, y}.
var axes;
// With one searched param, no y selector: one row, the param along x.
function drawHeatmap() {
  var ySelect = document.getElementById('heat-y');
  var x = data.names.length >= 2 ? document.getElementById('heat-x').value : data.names[0], y = ySelect ? ySelect.value : null;
  var best = data.best;
  axes = { x: x, y: y };
  var xSize = binSize(data.values[x].length), ySize = y === null ? 1 : binSize(data.values[y].length);
  var cells = bestCells(x, y, xSize, ySize);
  var shown = Object.keys(cells).map(function (key) { return cells[key].value; }).filter(function (value) { return value !== null; });
  var scale = rankScale(shown), places = decimalPlaces(shown);
  var xLabels = binLabels(data.values[x], xSize), yLabels = y === null ? [data.metric] : binLabels(data.values[y], ySize);
  var table = document.getElementById('heatmap');
  table.textContent = '';
  var head = element('tr');
  var corner = element('th', y === null ? x + ' →' : y + ' ↓ ' + x + ' →', 'corner');
  corner.title = y === null ? 'columns: ' + x : 'rows: ' + y + ', columns: ' + x;
  head.append(corner);
  xLabels.forEach(function (label) { head.append(element('th', label)); });
  var body = element('tbody');
  yLabels.forEach(function (yLabel, yBin) {
    var row = element('tr');
    row.append(element('th', yLabel));
    xLabels.forEach(function (xLabel, xBin) {
      var cell = cells[xBin + '|' + yBin];
      var isBest = best && Math.floor(best[x] / xSize) === xBin && (y === null || Math.floor(best[y] / ySize) === yBin);
      var filled = cell !== undefined && cell.value !== null;
      // A hole: "—" where trials ran but none was ranked (a constraint, no figure, the strategy threw); blank
      // where no trial ran (refused by the strategy's paramsSchema, or not drawn).
      var ran = cell !== undefined && Object.keys(cell.reasons).some(function (reason) { return reason.indexOf('refused') !== 0; });
      var kind = filled ? '' : ran ? ' empty left-out' : ' empty' + (cell === undefined ? '' : ' refused');
      var td = element('td', filled ? cell.value.toFixed(places) : ran ? '—' : '', 'cell' + (isBest ? ' best' : '') + kind);
      td.title = cellTitle(cell);
      if (filled) td.style.background = hue(scale.share(cell.value));
      row.append(td);
    });
    body.append(row);
  });
  var thead = element('thead');
  thead.append(head);
  table.append(thead, body);
  var texts = xLabels.concat(Array.prototype.map.call(body.querySelectorAll('td'), function (td) { return td.textContent; }));
  drawPrintBlocks(table, x, Math.max(3, Math.max.apply(null, texts.map(function (text) { return text.length; }))));
  var others = data.names.filter(function (name) { return name !== x && name !== y; });
  document.getElementById('heat-held').textContent = best && others.length > 0
    ? "other parameters at the best trial's values: " + others.map(function (name) { return name + '=' + data.values[name][best[name]]; }).join(' ')
    : '';
  document.getElementById('heat-bins').textContent = xSize > 1 || ySize > 1 ? 'neighbouring values grouped; a cell shows the best trial among them' : '';
  drawLegend(scale, shown.length, places);
}
// Picking for one axis the param shown on the other swaps the two (one param on both would draw a diagonal).
function chooseAxis(event) {
  var xSelect = document.getElementById('heat-x'), ySelect = document.getElementById('heat-y');
  if (xSelect.value === ySelect.value) {
    if (event.target === xSelect) ySelect.value = axes.x;
    else xSelect.value = axes.y;
  }
  drawHeatmap();
}
if (data.names.length >= 2) ['heat-x', 'heat-y'].forEach(function (id) { document.getElementById(id).addEventListener('change', chooseAxis); });
if (data.names.length >= 1) drawHeatmap();
`;
