// compare.js draws the compare page's charts from their JSON blocks: the
// option built by go-echarts on the server and, apart, the data of each
// of its series (box plot items, or [turn, value] pairs of the mean
// curves and their bands). It keeps the charts sized to their boxes and
// draws them in the system scheme's colours (scheme.js).
(function () {
  'use strict';
  if (!window.echarts || !window.ReplayLabScheme) return;
  var paint = window.ReplayLabScheme.paint;
  var charts = [];
  document.querySelectorAll('.compare-charts script.chart-option').forEach(function (block) {
    var el = document.getElementById(block.getAttribute('data-chart'));
    if (!el) return;
    var option = JSON.parse(block.textContent);
    var data = JSON.parse(document.getElementById(el.id + '-data').textContent);
    option.series.forEach(function (s, i) { s.data = data[i] || []; });
    var chart = echarts.init(el);
    chart.setOption(option);
    paint(chart, el);
    if (window.ResizeObserver) new ResizeObserver(function () { chart.resize(); }).observe(el);
    charts.push({ chart: chart, el: el });
  });
  window.ReplayLabScheme.onChange(function () {
    charts.forEach(function (c) { paint(c.chart, c.el); });
  });
  if (!window.ResizeObserver) {
    window.addEventListener('resize', function () { charts.forEach(function (c) { c.chart.resize(); }); });
  }
})();
