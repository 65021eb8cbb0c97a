// charts.js draws the charts of a match page (or a bot page's rating
// charts) from their JSON blocks: the
// option built by go-echarts on the server and, apart, the numbers of its
// series (one array per series: the values of turns 0, 1, 2..., or, for a
// long match downsampled on the server, [turn, value] pairs). It keeps the charts sized to their boxes,
// zooms them together, and opens the inspector at the turn a click on a
// chart lands on.
(function () {
  'use strict';
  var section = document.querySelector('.charts');
  if (!section || !window.echarts) return;
  var inspector = section.getAttribute('data-inspector');
  var charts = [];
  document.querySelectorAll('script.chart-option').forEach(function (block) {
    var el = document.getElementById(block.getAttribute('data-chart'));
    if (!el) return;
    var option = JSON.parse(block.textContent);
    var data = JSON.parse(document.getElementById(el.id + '-data').textContent);
    // The x axis is a value axis of turns: a value alone is at the turn
    // of its index.
    option.series.forEach(function (s, i) {
      s.data = data[i].map(function (v, turn) { return Array.isArray(v) ? v : [turn, v]; });
    });
    var chart = echarts.init(el);
    chart.setOption(option);
    // A click anywhere in the plot, not only on a point (lines are drawn
    // without symbols), picks the turn under the pointer.
    // Charts of a section without an inspector (a bot's ratings) are not
    // about turns.
    if (inspector) chart.getZr().on('click', function (e) {
      var at = [e.offsetX, e.offsetY];
      if (!chart.containPixel('grid', at)) return;
      var turn = Math.round(chart.convertFromPixel({ gridIndex: 0 }, at)[0]);
      if (turn >= 0) window.location.href = inspector + turn;
    });
    if (window.ResizeObserver) new ResizeObserver(function () { chart.resize(); }).observe(el);
    charts.push(chart);
  });
  if (!window.ResizeObserver) {
    window.addEventListener('resize', function () { charts.forEach(function (c) { c.resize(); }); });
  }
  echarts.connect(charts);
})();
