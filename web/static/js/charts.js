// charts.js draws the charts of a match page (or a bot page's rating
// charts) from their JSON blocks: the
// option built by go-echarts on the server and, apart, the numbers of its
// series (one array per series: the values of turns 0, 1, 2..., or [turn,
// value] pairs, for a long match downsampled on the server or a step line
// that keeps only its changes). A chart collapsed under its title
// (details.more-chart) is fetched from its data-src and drawn when opened.
// It keeps the charts sized to their boxes,
// zooms them together (with the slider, or the wheel with Ctrl or Shift),
// shows the lines hidden as zero all match on request, opens the
// inspector at the turn a click on a chart lands on, and draws them in the
// colours of the system's scheme, light or dark, redrawing them when it
// changes.
(function () {
  'use strict';
  var section = document.querySelector('.charts');
  if (!section || !window.echarts || !window.ReplayLabScheme) return;
  var inspector = section.getAttribute('data-inspector');
  var charts = [];
  var paint = window.ReplayLabScheme.paint;
  var measure = document.createElement('canvas').getContext('2d'); // for fitLegend
  document.querySelectorAll('script.chart-option').forEach(function (block) {
    var el = document.getElementById(block.getAttribute('data-chart'));
    if (!el) return;
    draw(el, JSON.parse(block.textContent), JSON.parse(document.getElementById(el.id + '-data').textContent));
  });
  // For a test to read when the page's own charts were drawn.
  if (window.performance && performance.mark) performance.mark('replaylab-charts-drawn');
  document.querySelectorAll('details.more-chart[data-src]').forEach(function (box) {
    box.addEventListener('toggle', function () {
      if (!box.open || box.getAttribute('data-state')) return;
      box.setAttribute('data-state', 'loading');
      var el = box.querySelector('.chart-later');
      fetch(box.getAttribute('data-src'), { headers: { Accept: 'application/json' } }).then(function (r) {
        if (!r.ok) throw new Error('HTTP ' + r.status);
        return r.json();
      }).then(function (got) {
        draw(el, got.option, got.data);
        box.setAttribute('data-state', 'drawn');
      }).catch(function (err) {
        el.textContent = 'The chart could not be loaded (' + err.message + '); reload the page to try again.';
        el.classList.add('chart-failed');
        box.setAttribute('data-state', 'failed');
      });
    });
  });
  // draw draws a chart into el from its option and numbers.
  function draw(el, option, data) {
    el.classList.add('chart'); // a collapsed chart's box gets its size now
    // The x axis is a value axis of turns: a value alone is at the turn
    // of its index.
    var lines = option.series.map(function (s, i) {
      s.data = [];
      return { data: data[i].map(function (v, turn) { return Array.isArray(v) ? v : [turn, v]; }) };
    });
    listEvents(option);
    // Every setOption draws the chart again: the colours and the legend's
    // room are set on the chart without its lines, which come last, so
    // the lines are drawn once.
    // No animation: a page draws several charts as it loads, and each
    // setOption would start transitions the eye never follows.
    option.animation = false;
    var chart = echarts.init(el);
    chart.setOption(option);
    paint(chart, el);
    var fit = fitLegend(chart, el, option);
    fit();
    chart.setOption({ series: lines });
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
    // A ResizeObserver reports the size it starts with too, which the
    // chart has already.
    var size = el.clientWidth + 'x' + el.clientHeight;
    if (window.ResizeObserver) new ResizeObserver(function () {
      var now = el.clientWidth + 'x' + el.clientHeight;
      if (now === size) return;
      size = now;
      chart.resize();
      fit();
    }).observe(el);
    // Charts of one group zoom together, those drawn later too.
    chart.group = 'replaylab';
    charts.push({ chart: chart, el: el });
    el.setAttribute('data-drawn', '');
    // For the page's own script (branch.js) to handle a chart drawn late.
    el.dispatchEvent(new CustomEvent('chartdrawn', { bubbles: true, detail: chart }));
  }
  window.ReplayLabScheme.onChange(function () {
    charts.forEach(function (c) { paint(c.chart, c.el); });
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
  // listEvents adds the turn's events to an axis tooltip: the charts mark
  // them with bare symbols (labels of close events would overlap), and
  // the axis tooltip is what shows when the pointer is on one. Names are
  // bots' text, so everything but ECharts' own marker is escaped.
  function listEvents(option) {
    var events = {}; // turn -> ["who: kinds"]
    function add(turn, text) { (events[turn] = events[turn] || []).push(text); }
    option.series.forEach(function (s) {
      ((s.markPoint && s.markPoint.data) || []).forEach(function (m) { add(m.coord[0], s.name + ': ' + m.name); });
      ((s.markLine && s.markLine.data) || []).forEach(function (m) { add(m.xAxis, m.name); });
    });
    if (!Object.keys(events).length || !option.tooltip) return;
    var esc = echarts.format.encodeHTML;
    (Array.isArray(option.tooltip) ? option.tooltip[0] : option.tooltip).formatter = function (params) {
      var turn = params.length ? params[0].axisValue : '';
      var out = ['turn ' + esc(String(turn))];
      params.forEach(function (p) { out.push(p.marker + esc(p.seriesName) + ' <b>' + esc(String(p.value[1])) + '</b>'); });
      (events[turn] || []).forEach(function (e) { out.push('● ' + esc(e)); });
      return out.join('<br>');
    };
  }
  // fitLegend returns a function that wraps the title short of the
  // toolbox's icons in the top right corner and starts the legend below
  // both, so that no row of either runs under the icons, and the plot
  // below the legend,
  // which shows every line and wraps onto as many rows as its names need
  // at the chart's width (a phone gets more rows than a desktop), and
  // makes the chart taller by what the legend takes beyond the one row the
  // server's option leaves room for, so the plot keeps its height. It lays
  // the names out as ECharts' plain legend does: an entry is its icon, a
  // gap and its name, entries a gap apart, a row 14 px high and rows a gap
  // apart.
  function fitLegend(chart, el, option) {
    var legend = Array.isArray(option.legend) ? option.legend[0] : option.legend;
    var grid = Array.isArray(option.grid) ? option.grid[0] : option.grid;
    var base = el.clientHeight, oneRow = Number(grid && grid.top);
    var ICON = 25, GAP = 10, ROW = 14, PAD = 5;
    return function () {
      if (!legend || legend.show === false || legend.type === 'scroll' || !(oneRow > 0)) return;
      measure.font = '12px sans-serif';
      var width = el.clientWidth - 2 * PAD, rows = 1, x = 0;
      // One entry per name: a chart may draw a name as several series.
      option.series.map(function (s) { return s.name; }).filter(function (n, i, all) {
        return all.indexOf(n) === i;
      }).forEach(function (name) {
        var w = ICON + 5 + measure.measureText(name).width;
        if (x > 0 && x + w > width) { rows++; x = 0; }
        x += w + GAP;
      });
      // A title that would run under the toolbox wraps short of it, and
      // the legend starts below both.
      var tools = drawnBox(chart, 'toolbox'), title = drawnBox(chart, 'title');
      if (tools && title) {
        chart.setOption({ title: { textStyle: { width: Math.max(60, tools[0] - title[0] - 2 * PAD - GAP), overflow: 'break', lineHeight: 22 } } });
        title = drawnBox(chart, 'title');
      }
      var legendTop = Math.max(Number(legend.top), tools ? tools[3] : 0, title ? title[3] : 0);
      var top = Math.max(oneRow, legendTop + 2 * PAD + rows * ROW + (rows - 1) * GAP + 16);
      var height = base + top - oneRow + 'px';
      if (el.style.height !== height) {
        el.style.height = height;
        chart.resize();
      }
      chart.setOption({ legend: { top: legendTop }, grid: { top: top } });
    };
  }
  // drawnBox is the box a component of a chart is drawn in, as [left,
  // top, right, bottom] in pixels from the chart's top left; null when the
  // chart has none.
  function drawnBox(chart, type) {
    var model = chart.getModel().getComponent(type), view = model && chart.getViewOfComponentModel(model);
    if (!view) return null;
    var box = view.group.getBoundingRect();
    var x = view.group.x + box.x, y = view.group.y + box.y;
    return [x, y, x + box.width, y + box.height];
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
    window.addEventListener('resize', function () { charts.forEach(function (c) { c.chart.resize(); }); });
  }
  echarts.connect('replaylab');
})();
