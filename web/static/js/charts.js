// charts.js draws the charts of a match page (or a bot page's rating
// charts) from their JSON blocks: the
// option built by go-echarts on the server and, apart, the numbers of its
// series (one array per series: the values of turns 0, 1, 2..., or, for a
// long match downsampled on the server, [turn, value] pairs). It keeps the charts sized to their boxes,
// zooms them together (with the slider, or the wheel with Ctrl or Shift),
// shows the lines hidden as zero all match on request, and opens the
// inspector at the turn a click on a chart lands on.
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
    zoomOnModifiedWheel(chart, el);
    showAllButton(chart, el);
    if (window.ResizeObserver) new ResizeObserver(function () { chart.resize(); }).observe(el);
    charts.push(chart);
  });
  // zoomOnModifiedWheel zooms the turns around the pointer on a wheel
  // turned with Ctrl or Shift held. A plain wheel, and a swipe, scroll the
  // page: the charts have no ECharts "inside" zoom, which takes them.
  function zoomOnModifiedWheel(chart, el) {
    el.addEventListener('wheel', function (e) {
      if (!e.ctrlKey && !e.shiftKey) return;
      var rect = el.getBoundingClientRect();
      var at = [e.clientX - rect.left, e.clientY - rect.top];
      if (!chart.containPixel('grid', at)) return;
      e.preventDefault();
      var option = chart.getOption(), zoom = option.dataZoom[0], x = option.xAxis[0];
      var min = x.min || 0, full = x.max - min; // the x axis is turns 0..match length
      if (!(full > 0)) return;
      var turn = chart.convertFromPixel({ gridIndex: 0 }, at)[0];
      var start = zoom.start, end = zoom.end;
      var focus = Math.max(start, Math.min(end, 100 * (turn - min) / full));
      var factor = (e.deltaY || e.deltaX) > 0 ? 1.25 : 0.8; // Shift turns some wheels sideways
      var s = focus - (focus - start) * factor, t = focus + (end - focus) * factor;
      chart.dispatchAction({ type: 'dataZoom', start: Math.max(0, s), end: Math.min(100, t) });
    }, { passive: false });
  }
  // showAllButton switches on the lines that start hidden (zero all match).
  function showAllButton(chart, el) {
    var button = el.parentNode.querySelector('button.show-all');
    if (!button) return;
    button.addEventListener('click', function () {
      chart.dispatchAction({ type: 'legendAllSelect' });
      button.hidden = true;
    });
  }
  if (!window.ResizeObserver) {
    window.addEventListener('resize', function () { charts.forEach(function (c) { c.resize(); }); });
  }
  echarts.connect(charts);
})();
