// Charts on paper, for the report pages: while the page prints (or is saved as PDF), each chart
// (lightweight-charts) shows a picture of itself instead, drawn in the paper's light palette and scaled to the
// paper's width. Left to print itself a chart keeps the screen's colours, dark on a dark system (it repaints on
// the next frame, and printing runs none), and the screen's width (no resize runs while printing either).
// `theme()` gives a chart's colour options from report.css's palette at the time.
function printCharts(charts, theme) {
  function printing(on) {
    // report.css's light palette while the root is .printing: beforeprint still comes in the screen's media.
    document.documentElement.classList.toggle('printing', on);
    charts.forEach(function (chart) {
      var element = chart.chartElement().parentElement, picture = element.querySelector(':scope > .chart-print');
      if (picture) picture.remove();
      chart.applyOptions(theme());
      if (on) {
        // A canvas, drawn at once with the colours just applied: an image's data URL may not be decoded yet when
        // the page is laid out on paper.
        picture = chart.takeScreenshot();
        picture.className = 'chart-print';
        element.append(picture);
      }
      element.classList.toggle('printed', on);
    });
  }
  window.addEventListener('beforeprint', function () { printing(true); });
  window.addEventListener('afterprint', function () { printing(false); });
  window.matchMedia('print').addEventListener('change', function (event) { printing(event.matches); });
}
